-- A registration is bound to the browser AWS Marketplace sent to the registration URL: that browser holds a secret in
-- a cookie, and reading or linking the registration needs it. Only the secret's SHA-256 is kept, so this table does
-- not hold what a browser would present. Registrations kept before this have none: no browser can use them, and they
-- expire within the hour like any other.
ALTER TABLE marketplace_registrations ADD COLUMN browser_secret_sha256 bytea;
