-- When a broker first served clients (its listener answered) from the machine it reports from; null while it starts.
-- A broker reported serving before this column existed has served since its report said so.
ALTER TABLE broker_reports ADD COLUMN serving_since timestamptz;
UPDATE broker_reports SET serving_since = reported_at WHERE listener_up;

-- The delivery of an instance's Kafka credentials to its brokers. Each time a broker starts serving, `requested`
-- goes up and every credential is written again, which reaches the new broker; `applied` is the highest delivery the
-- access agent has reported written in full. A broker takes the instance's credentials once the delivery its serving
-- asked for is applied.
CREATE TABLE access_deliveries (
    instance_id uuid   PRIMARY KEY REFERENCES instances (id) ON DELETE CASCADE,
    requested   bigint NOT NULL DEFAULT 0,
    applied     bigint NOT NULL DEFAULT 0
);

CREATE TABLE broker_credential_deliveries (
    instance_id uuid    NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    node_id     integer NOT NULL CHECK (node_id >= 0),
    delivery    bigint  NOT NULL,
    PRIMARY KEY (instance_id, node_id)
);
