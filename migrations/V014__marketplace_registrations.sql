-- A buyer AWS Marketplace sent to the registration URL, resolved before they signed in, kept against a one-time
-- reference until an admin links it to their organization or it expires. The reference (a random UUID) is all the
-- browser carries; what it stands for stays here.
CREATE TABLE marketplace_registrations (
    reference                uuid        PRIMARY KEY,
    product_code             text        NOT NULL,
    customer_aws_account_id  text        NOT NULL CHECK (customer_aws_account_id ~ '^[0-9]{12}$'),
    license_arn              text,
    customer_identifier      text,
    created_at               timestamptz NOT NULL,
    expires_at               timestamptz NOT NULL,
    -- Set once, in the transaction that links it: a used reference never links again. Subscriptions are ended,
    -- not deleted; should one be deleted, the reference that made it goes with it.
    subscription_id          uuid        REFERENCES marketplace_subscriptions (id) ON DELETE CASCADE,
    used_at                  timestamptz,
    CHECK (license_arn IS NOT NULL OR customer_identifier IS NOT NULL),
    CHECK ((used_at IS NULL) = (subscription_id IS NULL))
);
-- Expired references are deleted a day after their expiry, by the next registration.
CREATE INDEX marketplace_registrations_expiry ON marketplace_registrations (expires_at);
