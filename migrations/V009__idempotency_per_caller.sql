-- Idempotency keys belong to the caller who sent them, within the organization: another member
-- (or a service account) sending the same key gets its own answer, never the first caller's.
-- Records kept from before knew no caller; they keep an empty subject, so they replay to nobody
-- and expire within a day like any other.
ALTER TABLE idempotency_records ADD COLUMN caller_subject text NOT NULL DEFAULT '';
ALTER TABLE idempotency_records ALTER COLUMN caller_subject DROP DEFAULT;
ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_pkey;
ALTER TABLE idempotency_records ADD PRIMARY KEY (organization_id, caller_subject, idempotency_key);
