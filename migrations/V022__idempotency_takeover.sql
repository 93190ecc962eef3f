-- A key's request can die with its process. Its claim names the request holding it (each request that takes the key
-- holds it anew) and when that one took it, so a claim still unanswered after keel.idempotency.stale-after is taken
-- over by a retry; and it keeps the answer the request's change gives, written in the transaction that commits the
-- change, so that retry is answered from the change instead of making it again. Claims kept from before made no
-- recorded change and count as taken when they were created.
ALTER TABLE idempotency_records
    ADD COLUMN holder         uuid,
    ADD COLUMN claimed_at     timestamptz,
    ADD COLUMN effect_status  integer,
    ADD COLUMN effect_headers jsonb,
    ADD COLUMN effect_body    bytea;
UPDATE idempotency_records SET holder = gen_random_uuid(), claimed_at = created_at;
ALTER TABLE idempotency_records
    ALTER COLUMN holder SET NOT NULL,
    ALTER COLUMN claimed_at SET NOT NULL,
    ALTER COLUMN claimed_at SET DEFAULT now();
