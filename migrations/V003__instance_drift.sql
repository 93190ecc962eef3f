-- What the last drift check found different in the cloud from the spec (null: nothing).
ALTER TABLE instances ADD COLUMN drift text;
ALTER TABLE instances ADD COLUMN drift_checked_at timestamptz;
