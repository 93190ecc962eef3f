-- An organization's spend guardrails, set by its admins: each limit is optional (null: none). A create or a
-- scale-up that would pass one is refused before anything is provisioned.
CREATE TABLE billing_budgets (
    organization_id          uuid        PRIMARY KEY REFERENCES organizations (id),
    -- AKU-hours a calendar month (UTC) may use, as projected when capacity is asked for.
    monthly_aku_hours        integer     CHECK (monthly_aku_hours IS NULL OR monthly_aku_hours > 0),
    max_aku_per_instance     integer     CHECK (max_aku_per_instance IS NULL OR max_aku_per_instance > 0),
    max_aku_per_organization integer     CHECK (max_aku_per_organization IS NULL OR max_aku_per_organization > 0),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    CHECK (max_aku_per_instance IS NULL OR max_aku_per_organization IS NULL
           OR max_aku_per_organization >= max_aku_per_instance)
);
