-- Every agreement event read from the seller's queue, once (AWS delivers each at least once), kept until it is
-- applied to its subscription: an event may arrive before the buyer has linked the subscription, and an agreement
-- event names only the agreement, whose licence its licence events name.
CREATE TABLE marketplace_agreement_events (
    -- The EventBridge event id or the SNS MessageId.
    event_id                 text        PRIMARY KEY,
    kind                     text        NOT NULL CHECK (kind IN ('PURCHASED', 'AMENDED', 'CANCELLING', 'ENDED',
                                                                   'SUPERSEDED', 'SUBSCRIBE_FAILED',
                                                                   'ENTITLEMENT_CHANGED')),
    -- AWS's time of the event: the order events are applied in.
    occurred_at              timestamptz NOT NULL,
    product_code             text,
    agreement_id             text,
    license_arn              text,
    customer_aws_account_id  text,
    customer_identifier      text,
    received_at              timestamptz NOT NULL DEFAULT now(),
    -- Set once the event was applied to its subscription, or passed over.
    subscription_id          uuid        REFERENCES marketplace_subscriptions (id),
    applied_at               timestamptz,
    -- APPLIED: it is the subscription's latest word (or, entitlement events, the entitlement was read again for it);
    -- IGNORED: a newer event or the end of the subscription had already said more.
    outcome                  text        CHECK (outcome IN ('APPLIED', 'IGNORED')),
    CHECK ((applied_at IS NULL) = (outcome IS NULL) AND (applied_at IS NULL) = (subscription_id IS NULL)),
    CHECK (agreement_id IS NOT NULL OR license_arn IS NOT NULL OR customer_identifier IS NOT NULL)
);
CREATE INDEX marketplace_agreement_events_waiting ON marketplace_agreement_events (occurred_at) WHERE applied_at IS NULL;
CREATE INDEX marketplace_agreement_events_agreement ON marketplace_agreement_events (agreement_id, license_arn)
    WHERE agreement_id IS NOT NULL AND license_arn IS NOT NULL;

-- Messages on the queue that are no agreement event the product acts on: kept for a person to look at, so the
-- queue never hands them out again.
CREATE TABLE marketplace_unknown_messages (
    message_id   text        PRIMARY KEY,
    body         text        NOT NULL,
    reason       text        NOT NULL,
    received_at  timestamptz NOT NULL DEFAULT now()
);
