-- An organization's AWS Marketplace subscription: who pays (the buyer's AWS account and licence), where the
-- agreement stands, and what the licence allows. Since June 2026 a buyer is identified by CustomerAWSAccountId +
-- LicenseArn; CustomerIdentifier is kept where ResolveCustomer still returns it (listings from before).
CREATE TABLE marketplace_subscriptions (
    id                       uuid        PRIMARY KEY,
    organization_id          uuid        NOT NULL REFERENCES organizations (id),
    product_code             text        NOT NULL,
    customer_aws_account_id  text        NOT NULL CHECK (customer_aws_account_id ~ '^[0-9]{12}$'),
    license_arn              text,
    customer_identifier      text,
    state                    text        NOT NULL
        CHECK (state IN ('PENDING', 'ACTIVE', 'AMENDED', 'CANCELLING', 'ENDED')),
    -- When AWS says the latest applied event happened: events arrive at least once and out of order, and an
    -- event older than this one never changes the subscription.
    state_event_at           timestamptz NOT NULL,
    -- What GetEntitlements last said: the most AKU the licence allows at once, null when the licence is
    -- pay-as-you-go with no limit.
    entitled_aku             integer     CHECK (entitled_aku IS NULL OR entitled_aku > 0),
    entitlement_read_at      timestamptz,
    -- When the agreement ended; running instances keep running through the grace period after it.
    ended_at                 timestamptz,
    created_at               timestamptz NOT NULL DEFAULT now(),
    CHECK (license_arn IS NOT NULL OR customer_identifier IS NOT NULL),
    CHECK ((state = 'ENDED') = (ended_at IS NOT NULL))
);
-- A licence pays for one organization, and an organization has at most one subscription that is not over.
CREATE UNIQUE INDEX marketplace_subscriptions_licence ON marketplace_subscriptions (product_code, license_arn)
    WHERE license_arn IS NOT NULL;
CREATE UNIQUE INDEX marketplace_subscriptions_customer ON marketplace_subscriptions (product_code, customer_identifier)
    WHERE customer_identifier IS NOT NULL;
CREATE UNIQUE INDEX marketplace_subscriptions_current ON marketplace_subscriptions (organization_id)
    WHERE state <> 'ENDED';
