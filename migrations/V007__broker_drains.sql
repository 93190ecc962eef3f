-- Drains the control plane asked for before it terminates a broker machine on scale-down, and their
-- progress as the machine's agent last reported it. Keyed by the EC2 instance: a node id is reused by
-- a later scale-up, its new machine must not inherit the old one's drain.
CREATE TABLE broker_drains (
    instance_id          uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    ec2_instance_id      text        NOT NULL,
    node_id              integer     NOT NULL CHECK (node_id >= 0),
    -- The brokers that stay: partitions move only to them, never to another broker on its way out.
    drain_to             integer[]   NOT NULL,
    requested_at         timestamptz NOT NULL,
    status               text        NOT NULL CHECK (status IN ('REQUESTED', 'DRAINING', 'DRAINED', 'FAILED')),
    partitions_remaining integer     CHECK (partitions_remaining >= 0),
    message              text,
    updated_at           timestamptz NOT NULL,
    PRIMARY KEY (instance_id, ec2_instance_id)
);
