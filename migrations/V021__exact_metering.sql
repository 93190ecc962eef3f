-- Usage is metered exactly, in AKU-minutes (dimension aku_minutes), one record per buyer and hour.

-- What AWS said last, beyond the states of before. UNKNOWN: the hour went past AWS's 6-hour window while a worker
-- was sending it, so AWS may have billed it or not; it is reconciled with AWS's reports, never sent again.
-- NOT_SUBSCRIBED: AWS says the buyer is not subscribed and the subscription has ended: AWS bills nothing more for it.
ALTER TABLE metering_records DROP CONSTRAINT metering_records_state_check;
ALTER TABLE metering_records ADD CONSTRAINT metering_records_state_check
    CHECK (state IN ('PENDING', 'SENT', 'ACCEPTED', 'DUPLICATE', 'FAILED', 'UNKNOWN', 'NOT_SUBSCRIBED'));

-- The usage below a whole AKU-minute, in AKU-milliseconds, carried into the buyer's next hour: what the records of
-- a buyer add up to stays within one AKU-minute of what the capacity periods say.
ALTER TABLE metering_records ADD COLUMN carry_aku_ms integer NOT NULL DEFAULT 0
    CHECK (carry_aku_ms >= 0 AND carry_aku_ms < 60000);

-- AWS keys a usage record by the buyer, dimension and hour: two subscriptions of one buyer in one hour (a buyer who
-- re-subscribes) make one record, under the subscription that came last. Records in AKU-hours were one per
-- subscription, so they are left out.
CREATE UNIQUE INDEX metering_records_buyer_hour ON metering_records (customer_aws_account_id, dimension, hour)
    WHERE dimension <> 'aku_hours';
-- A buyer's latest hour, whatever the dimension: the next one written follows it.
CREATE INDEX metering_records_buyer ON metering_records (customer_aws_account_id, hour DESC);

-- A backend of an earlier version, still running while a new one rolls out, would write in AKU-hours an hour that
-- this version writes in AKU-minutes, and AWS would bill the hour twice.
CREATE FUNCTION metering_records_refuse_aku_hours() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'usage is metered in aku_minutes: a backend that writes aku_hours is of an earlier version';
END $$;
CREATE TRIGGER metering_records_refuse_aku_hours BEFORE INSERT ON metering_records
    FOR EACH ROW WHEN (NEW.dimension = 'aku_hours') EXECUTE FUNCTION metering_records_refuse_aku_hours();

-- When the agreement-event queue was last read to its end with every event read applied (database time). An hour
-- is metered once the queue was read so after the hour's end, so an agreement that ended within the hour is known.
CREATE TABLE marketplace_agreement_queue (
    singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    drained_at timestamptz NOT NULL
);
INSERT INTO marketplace_agreement_queue (drained_at) VALUES (now());
