-- A role belongs to the first organization that registers it. Another organization registering the
-- same role gets the answer a role that does not exist gets, so it learns nothing about who else
-- uses Keel; on LocalStack, which ignores the external id, it could otherwise work through the role.
-- IAM role names are unique per account whatever their case or path, so the role is known by its
-- partition, account and lower-cased name.
ALTER TABLE cloud_accounts
    ADD COLUMN role_identity text GENERATED ALWAYS AS
        (lower(split_part(role_arn, ':', 2) || ':' || aws_account_id || ':' || substring(role_arn FROM '[^/]+$'))) STORED,
    ADD COLUMN role_owner boolean NOT NULL DEFAULT false;

-- Accounts registered before: each role goes to its earliest live registration.
UPDATE cloud_accounts SET role_owner = true
WHERE id IN (SELECT DISTINCT ON (role_identity) id FROM cloud_accounts
             WHERE deleted_at IS NULL
             ORDER BY role_identity, created_at, id);

-- Two registrations racing for one role: only one can hold it.
CREATE UNIQUE INDEX cloud_accounts_one_owner_per_role ON cloud_accounts (role_identity)
    WHERE role_owner AND deleted_at IS NULL;
