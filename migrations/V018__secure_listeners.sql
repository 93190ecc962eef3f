-- How an instance's brokers let clients and each other in, fixed at create: SASL_SSL (SCRAM-SHA-512 over TLS for
-- clients, mutual TLS between brokers) or PLAINTEXT_UNAUTHENTICATED (the development flag). Instances created before
-- secure listeners run plaintext brokers, and keep them; new ones always say.
ALTER TABLE instances
    ADD COLUMN listener_security text NOT NULL DEFAULT 'PLAINTEXT_UNAUTHENTICATED'
        CHECK (listener_security IN ('SASL_SSL', 'PLAINTEXT_UNAUTHENTICATED'));
ALTER TABLE instances ALTER COLUMN listener_security DROP DEFAULT;

-- Each SASL_SSL instance's own certificate authority, made once (the primary key keeps a second from being made):
-- it signs its brokers' certificates, and clients trust it. The private key is sealed under KEEL_SECRETS_KEY (context
-- ca-key:<instance id>), never stored in the clear.
CREATE TABLE instance_certificate_authorities (
    instance_id     uuid        PRIMARY KEY REFERENCES instances (id),
    certificate_pem text        NOT NULL,
    sealed_key      bytea       NOT NULL,
    created_at      timestamptz NOT NULL,
    not_after       timestamptz NOT NULL
);

-- Every broker certificate the control plane signed: which node of which instance asked, its serial (hex), and until
-- when it is valid.
CREATE TABLE issued_broker_certificates (
    instance_id uuid        NOT NULL REFERENCES instances (id),
    node_id     integer     NOT NULL CHECK (node_id >= 0),
    serial      text        NOT NULL,
    issued_at   timestamptz NOT NULL,
    not_after   timestamptz NOT NULL,
    PRIMARY KEY (instance_id, serial)
);
CREATE INDEX issued_broker_certificates_node ON issued_broker_certificates (instance_id, node_id, issued_at DESC);
