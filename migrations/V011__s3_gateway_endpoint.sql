-- What Keel does about the S3 gateway endpoint the brokers' S3 traffic should take instead of a NAT gateway:
-- CREATE (use or create one), REQUIRE_EXISTING (refuse without the customer's), NONE (leave routing alone).
-- Instances created before the option existed keep their VPC's routing as it was; new ones always say.
ALTER TABLE instances
    ADD COLUMN s3_gateway_endpoint text NOT NULL DEFAULT 'NONE'
        CHECK (s3_gateway_endpoint IN ('CREATE', 'REQUIRE_EXISTING', 'NONE'));
ALTER TABLE instances ALTER COLUMN s3_gateway_endpoint DROP DEFAULT;
