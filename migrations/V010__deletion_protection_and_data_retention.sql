-- Deletion protection: while it is on, a DELETE of the instance is refused. Instances created
-- before it existed keep what they had, deletable (false); the API's create defaults to false too,
-- so automation written before it keeps working, and the console turns it on by default.
ALTER TABLE instances ADD COLUMN deletion_protection boolean NOT NULL DEFAULT false;

-- A deleted instance's data bucket is kept until this moment, then emptied and deleted by the
-- retention purge. Set with the delete (unless it purges at once) and cleared only once the bucket is
-- gone, so the row records the bucket for as long as it exists; null: nothing is retained.
ALTER TABLE instances ADD COLUMN data_retained_until timestamptz;
CREATE INDEX instances_data_retained_until ON instances (data_retained_until) WHERE data_retained_until IS NOT NULL;
