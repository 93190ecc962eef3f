-- Broker metrics as reported by the broker agents, at three resolutions: 10 s samples kept 24 h,
-- 1 min kept 14 days, 1 h kept a year. Each row is one broker's value of one metric in one bucket.
CREATE TABLE metric_samples (
    instance_id  uuid             NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    name         text             NOT NULL,
    resolution   integer          NOT NULL CHECK (resolution IN (10, 60, 3600)),
    bucket_start timestamptz      NOT NULL,
    node_id      integer          NOT NULL CHECK (node_id >= 0),
    value        double precision NOT NULL,
    samples      integer          NOT NULL DEFAULT 1 CHECK (samples > 0),
    PRIMARY KEY (instance_id, name, resolution, bucket_start, node_id)
);
CREATE INDEX metric_samples_age ON metric_samples (resolution, bucket_start);

-- The latest report of each broker: what health conditions are computed from.
CREATE TABLE broker_reports (
    instance_id uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    node_id     integer     NOT NULL CHECK (node_id >= 0),
    reported_at timestamptz NOT NULL,
    address     text,
    process_up  boolean     NOT NULL,
    listener_up boolean     NOT NULL,
    quorum_ok   boolean     NOT NULL,
    detail      text,
    PRIMARY KEY (instance_id, node_id)
);
