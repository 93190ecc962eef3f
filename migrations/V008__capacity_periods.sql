-- The capacity each instance ran with, and when: usage is metered in AKU-hours from these periods.
-- A period opens when a create or a scale succeeds and closes when the next scale or the delete does.
CREATE TABLE capacity_periods (
    instance_id     uuid        NOT NULL REFERENCES instances (id),
    organization_id uuid        NOT NULL REFERENCES organizations (id),
    aku             integer     NOT NULL CHECK (aku > 0),
    started_at      timestamptz NOT NULL,
    ended_at        timestamptz CHECK (ended_at IS NULL OR ended_at >= started_at),
    PRIMARY KEY (instance_id, started_at)
);
-- At most one open period per instance.
CREATE UNIQUE INDEX capacity_periods_open ON capacity_periods (instance_id) WHERE ended_at IS NULL;
CREATE INDEX capacity_periods_org ON capacity_periods (organization_id, started_at);

-- Instances that already run: from their create's success, at their current capacity.
INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at)
SELECT i.id, i.organization_id, i.aku,
       coalesce((SELECT max(o.finished_at) FROM operations o
                 WHERE o.instance_id = i.id AND o.type = 'CREATE' AND o.state = 'SUCCEEDED'), i.created_at)
FROM instances i
WHERE i.state IN ('RUNNING', 'CHANGING', 'FAILED')
  AND EXISTS (SELECT 1 FROM operations o WHERE o.instance_id = i.id AND o.type = 'CREATE' AND o.state = 'SUCCEEDED');
