-- Tenancy: organizations are created on first sight of a token claim; memberships mirror the
-- claims so audit events and operations can name people after their tokens expire.
CREATE TABLE organizations (
    id          uuid        PRIMARY KEY,
    slug        text        NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
    name        text        NOT NULL,
    external_id text        NOT NULL UNIQUE CHECK (length(external_id) BETWEEN 16 AND 64),
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
    organization_id uuid        NOT NULL REFERENCES organizations (id),
    subject         text        NOT NULL,
    username        text        NOT NULL,
    role            text        NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    last_seen_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, subject)
);

CREATE TABLE cloud_accounts (
    id                      uuid        PRIMARY KEY,
    organization_id         uuid        NOT NULL REFERENCES organizations (id),
    name                    text        NOT NULL CHECK (name ~ '^[a-z][a-z0-9-]{1,62}[a-z0-9]$'),
    aws_account_id          text        NOT NULL CHECK (aws_account_id ~ '^[0-9]{12}$'),
    role_arn                text        NOT NULL CHECK (role_arn ~ '^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$'),
    regions                 text[]      NOT NULL CHECK (cardinality(regions) BETWEEN 1 AND 20),
    status                  text        NOT NULL CHECK (status IN ('PENDING_VERIFICATION', 'VERIFIED', 'VERIFICATION_FAILED')),
    verification_checked_at timestamptz,
    missing_actions         text[]      NOT NULL DEFAULT '{}',
    created_at              timestamptz NOT NULL DEFAULT now(),
    deleted_at              timestamptz,
    CHECK (substring(role_arn FROM ':iam::([0-9]{12}):') = aws_account_id)
);
CREATE UNIQUE INDEX cloud_accounts_name_per_org ON cloud_accounts (organization_id, name) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX cloud_accounts_role_per_org ON cloud_accounts (organization_id, role_arn) WHERE deleted_at IS NULL;
CREATE INDEX cloud_accounts_page ON cloud_accounts (organization_id, created_at DESC, id DESC);

CREATE TABLE instances (
    id                  uuid        PRIMARY KEY,
    organization_id     uuid        NOT NULL REFERENCES organizations (id),
    cloud_account_id    uuid        NOT NULL REFERENCES cloud_accounts (id),
    name                text        NOT NULL CHECK (name ~ '^[a-z][a-z0-9-]{1,62}[a-z0-9]$'),
    region              text        NOT NULL,
    state               text        NOT NULL CHECK (state IN ('CREATING', 'RUNNING', 'CHANGING', 'DELETING', 'DELETED', 'FAILED')),
    vpc_id              text        NOT NULL,
    subnets             jsonb       NOT NULL CHECK (jsonb_typeof(subnets) = 'array'),
    zone_count          smallint    NOT NULL CHECK (zone_count IN (1, 3)),
    wal_type            text        NOT NULL CHECK (wal_type IN ('EBS', 'S3', 'FSWAL')),
    aku                 integer     NOT NULL CHECK (aku > 0),
    fsx_throughput_mbps integer     CHECK (fsx_throughput_mbps IN (384, 768, 1536, 3072, 6144)),
    fsx_count           integer     CHECK (fsx_count > 0),
    broker_version      text        NOT NULL,
    catalog_version     integer     NOT NULL,
    spec_version        integer     NOT NULL DEFAULT 1 CHECK (spec_version > 0),
    inventory           jsonb       NOT NULL DEFAULT '{}',
    conditions          jsonb       NOT NULL DEFAULT '[]',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    deleted_at          timestamptz,
    CHECK (jsonb_array_length(subnets) = zone_count),
    CONSTRAINT ebs_wal_is_single_zone CHECK (wal_type <> 'EBS' OR zone_count = 1),
    CONSTRAINT fswal_is_three_zones CHECK (wal_type <> 'FSWAL' OR zone_count = 3),
    CONSTRAINT fsx_only_with_fswal CHECK (
        (wal_type = 'FSWAL') = (fsx_throughput_mbps IS NOT NULL AND fsx_count IS NOT NULL)
        AND (fsx_throughput_mbps IS NULL) = (fsx_count IS NULL)),
    CHECK ((state = 'DELETED') = (deleted_at IS NOT NULL))
);
CREATE UNIQUE INDEX instances_name_per_org ON instances (organization_id, name) WHERE state <> 'DELETED';
CREATE INDEX instances_page ON instances (organization_id, created_at DESC, id DESC);
CREATE INDEX instances_by_account ON instances (cloud_account_id) WHERE state <> 'DELETED';

CREATE TABLE operations (
    id              uuid        PRIMARY KEY,
    organization_id uuid        NOT NULL REFERENCES organizations (id),
    instance_id     uuid        NOT NULL REFERENCES instances (id),
    type            text        NOT NULL CHECK (type IN ('CREATE', 'UPDATE', 'DELETE', 'REPAIR')),
    state           text        NOT NULL CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
    requested_by    text        NOT NULL,
    -- What to restore if the operation is cancelled before it starts.
    previous_state  text        NOT NULL,
    previous_spec   jsonb,
    error_code      text,
    error_message   text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    CHECK ((state IN ('SUCCEEDED', 'FAILED', 'CANCELLED')) = (finished_at IS NOT NULL)),
    CHECK ((state = 'FAILED') = (error_code IS NOT NULL))
);
-- At most one operation in flight per instance: the database, not the caller, serialises changes.
CREATE UNIQUE INDEX operations_one_active_per_instance ON operations (instance_id) WHERE state IN ('PENDING', 'RUNNING');
CREATE INDEX operations_page ON operations (instance_id, created_at DESC, id DESC);

CREATE TABLE operation_steps (
    operation_id uuid        NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
    position     integer     NOT NULL CHECK (position >= 0),
    name         text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED')),
    attempts     integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    last_worker  text,
    message      text,
    started_at   timestamptz,
    finished_at  timestamptz,
    PRIMARY KEY (operation_id, position),
    UNIQUE (operation_id, name)
);

CREATE TABLE idempotency_records (
    organization_id  uuid        NOT NULL REFERENCES organizations (id),
    idempotency_key  text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
    request_method   text        NOT NULL,
    request_path     text        NOT NULL,
    request_hash     text        NOT NULL,
    -- NULL while the first request is still being processed.
    response_status  integer,
    response_headers jsonb,
    response_body    bytea,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, idempotency_key)
);
CREATE INDEX idempotency_records_age ON idempotency_records (created_at);

CREATE TABLE audit_events (
    id              uuid        PRIMARY KEY,
    organization_id uuid        NOT NULL REFERENCES organizations (id),
    occurred_at     timestamptz NOT NULL DEFAULT now(),
    actor_subject   text        NOT NULL,
    actor_username  text        NOT NULL,
    action          text        NOT NULL,
    resource_type   text        NOT NULL,
    resource_id     text        NOT NULL,
    request_id      text,
    before          jsonb,
    after           jsonb
);
CREATE INDEX audit_events_page ON audit_events (organization_id, occurred_at DESC, id DESC);
CREATE INDEX audit_events_resource ON audit_events (organization_id, resource_type, resource_id);

-- db-scheduler's table (its documented PostgreSQL schema): the durable queue of operation runs.
CREATE TABLE scheduled_tasks (
    task_name            text                     NOT NULL,
    task_instance        text                     NOT NULL,
    task_data            bytea,
    execution_time       timestamp with time zone NOT NULL,
    picked               boolean                  NOT NULL,
    picked_by            text,
    last_success         timestamp with time zone,
    last_failure         timestamp with time zone,
    consecutive_failures integer,
    last_heartbeat       timestamp with time zone,
    version              bigint                   NOT NULL,
    priority             smallint,
    PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX scheduled_tasks_execution_time ON scheduled_tasks (execution_time);
CREATE INDEX scheduled_tasks_last_heartbeat ON scheduled_tasks (last_heartbeat);
CREATE INDEX scheduled_tasks_priority_execution_time ON scheduled_tasks (priority DESC, execution_time ASC);
