-- Fenced steps: every run of an operation takes its fence (the number goes up by one, the holder is the worker), and
-- every write the run makes is conditional on still holding it. A worker that lost the operation to another while it
-- could not reach the database (a long pause, a failover) writes nothing more, and changes nothing more in the cloud.
ALTER TABLE operations ADD COLUMN fence bigint NOT NULL DEFAULT 0;
ALTER TABLE operations ADD COLUMN fence_holder text;

-- A step that waits for the cloud frees its worker: its run ends and the step runs again at its next look. What it
-- waits for and since when anchor the wait, so it goes on where it was; a resumed wait is not a new attempt.
ALTER TABLE operation_steps ADD COLUMN waiting_for text;
ALTER TABLE operation_steps ADD COLUMN waiting_since timestamptz;
ALTER TABLE operation_steps ADD COLUMN next_look_at timestamptz;

-- When a run of the operation last moved it on (took it, or started, finished or rescheduled a step): an operation
-- that has not moved for long is stuck, and an alert says so.
ALTER TABLE operations ADD COLUMN progressed_at timestamptz;
