-- The metering ledger: each hour's usage of each billable subscription, written here before it is sent to AWS
-- Marketplace, and what AWS answered. One row per (subscription, dimension, hour), never two: an hour is metered
-- once, and the customer reconciles these rows with their AWS bill.
CREATE TABLE metering_records (
    id                       uuid        PRIMARY KEY,
    organization_id          uuid        NOT NULL REFERENCES organizations (id),
    subscription_id          uuid        NOT NULL REFERENCES marketplace_subscriptions (id),
    -- Who AWS bills, as the subscription named them when the hour was written.
    customer_aws_account_id  text        NOT NULL,
    license_arn              text,
    customer_identifier      text,
    dimension                text        NOT NULL,
    -- The start of the hour (UTC); the record is sent with this timestamp.
    hour                     timestamptz NOT NULL CHECK (date_trunc('hour', hour, 'UTC') = hour),
    quantity                 integer     NOT NULL CHECK (quantity >= 0),
    -- PENDING: to send. SENT: claimed by a worker that may have called AWS; its claim expires and the record is
    -- sent again (AWS answers an identical record with the earlier result). ACCEPTED: AWS has it. DUPLICATE: AWS
    -- has a different quantity for the hour. FAILED: AWS refused it, or the hour went past AWS's 6-hour window.
    state                    text        NOT NULL
        CHECK (state IN ('PENDING', 'SENT', 'ACCEPTED', 'DUPLICATE', 'FAILED')),
    metering_record_id       text,
    attempts                 integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_error               text,
    -- PENDING: not before this (retries back off). SENT: when the claim was made.
    due_at                   timestamptz NOT NULL,
    created_at               timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL,
    CHECK (license_arn IS NOT NULL OR customer_identifier IS NOT NULL),
    CHECK ((state = 'ACCEPTED') = (metering_record_id IS NOT NULL)),
    UNIQUE (subscription_id, dimension, hour)
);
CREATE INDEX metering_records_open ON metering_records (due_at) WHERE state IN ('PENDING', 'SENT');
CREATE INDEX metering_records_org ON metering_records (organization_id, hour DESC, id DESC);
