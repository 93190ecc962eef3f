-- Why the last verification could not decide or failed beyond missing actions (the role cannot be
-- assumed, does not exist, AWS was unreachable); null when it passed.
ALTER TABLE cloud_accounts ADD COLUMN verification_message text;
