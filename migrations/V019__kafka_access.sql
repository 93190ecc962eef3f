-- Kafka users, ACLs and topics: desired state the instance's broker agent pulls and applies, and what it
-- last reported seeing on the brokers.

-- A SCRAM user. Its password is only ever kept sealed (SecretBox, context
-- kafka-user:<instance>:<name>:<credential_version>): the agent is sent it while the brokers lack this version
-- (applied_credential_version differs) or the last report found the user missing (reported_absent).
CREATE TABLE kafka_users (
    instance_id                uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    name                       text        NOT NULL CHECK (name ~ '^[A-Za-z0-9._-]{1,64}$'),
    status                     text        NOT NULL CHECK (status IN ('CREATING', 'ACTIVE', 'UPDATING', 'RESTORING', 'DELETING')),
    status_message             text,
    credential_version         integer     NOT NULL CHECK (credential_version > 0),
    sealed_password            bytea       NOT NULL,
    applied_credential_version integer,
    reported_absent            boolean     NOT NULL DEFAULT false,
    created_at                 timestamptz NOT NULL DEFAULT now(),
    password_rotated_at        timestamptz NOT NULL DEFAULT now(),
    restored_at                timestamptz,
    PRIMARY KEY (instance_id, name)
);

-- An ACL binding; one row per binding and instance, so the same binding cannot be recorded twice.
CREATE TABLE kafka_acls (
    id             uuid        PRIMARY KEY,
    instance_id    uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    principal      text        NOT NULL,
    resource_type  text        NOT NULL,
    resource_name  text        NOT NULL,
    pattern_type   text        NOT NULL,
    operation      text        NOT NULL,
    permission     text        NOT NULL,
    host           text        NOT NULL,
    status         text        NOT NULL CHECK (status IN ('CREATING', 'ACTIVE', 'DELETING')),
    status_message text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    restored_at    timestamptz,
    UNIQUE (instance_id, principal, resource_type, resource_name, pattern_type, operation, permission, host)
);
CREATE INDEX kafka_acls_page ON kafka_acls (instance_id, created_at, id);

-- A topic change asked through the API: pending until the agent reports it applied (the row goes) or refused
-- (error set; kept to show the topic FAILED until the next change of that topic).
CREATE TABLE kafka_topic_changes (
    id                 uuid        PRIMARY KEY,
    instance_id        uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    topic_name         text        NOT NULL,
    action             text        NOT NULL CHECK (action IN ('CREATE', 'UPDATE', 'DELETE')),
    partitions         integer     CHECK (partitions > 0),
    replication_factor integer     CHECK (replication_factor > 0),
    configs            jsonb       NOT NULL DEFAULT '{}',
    error              text,
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kafka_topic_changes_of_instance ON kafka_topic_changes (instance_id, created_at);

-- The topics the agent last reported (internal ones left out), replaced by each report.
CREATE TABLE kafka_topic_inventory (
    instance_id        uuid        NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    name               text        NOT NULL,
    partitions         integer     NOT NULL,
    replication_factor integer     NOT NULL,
    configs            jsonb       NOT NULL DEFAULT '{}',
    size_bytes         bigint,
    observed_at        timestamptz NOT NULL,
    PRIMARY KEY (instance_id, name)
);

-- Stored first responses are sealed (a create's answer can carry a password). Records kept from before stay
-- readable as they are and expire within a day.
ALTER TABLE idempotency_records ADD COLUMN response_sealed boolean NOT NULL DEFAULT false;
