-- A database at schema version 7 as production would have it: two organizations, their accounts,
-- instances in every state with the operations that brought them there, and a row in every other
-- table. MigrationsTest loads it at version 7 and migrates it to the newest version.

INSERT INTO organizations (id, slug, name, external_id, created_at) VALUES
    ('00000000-0000-4000-8000-000000000001', 'acme', 'acme', 'keel-0123456789abcdef0123456789abcdef', '2026-09-01T00:00:00Z'),
    ('00000000-0000-4000-8000-000000000002', 'globex', 'globex', 'keel-fedcba9876543210fedcba9876543210', '2026-09-02T00:00:00Z');

INSERT INTO memberships (organization_id, subject, username, role, last_seen_at) VALUES
    ('00000000-0000-4000-8000-000000000001', '5b1e0c1a-acme-admin', 'acme-admin', 'admin', '2026-10-10T00:00:00Z'),
    ('00000000-0000-4000-8000-000000000002', '7c2f1d2b-globex-admin', 'globex-admin', 'admin', '2026-10-10T00:00:00Z');

INSERT INTO cloud_accounts (id, organization_id, name, aws_account_id, role_arn, regions, status,
                            verification_checked_at, missing_actions, verification_message, created_at, deleted_at) VALUES
    ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'production', '111111111111',
     'arn:aws:iam::111111111111:role/KeelControlPlane', '{us-east-1,eu-west-1}', 'VERIFIED',
     '2026-09-01T01:00:00Z', '{}', NULL, '2026-09-01T01:00:00Z', NULL),
    ('00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-000000000001', 'staging', '222222222222',
     'arn:aws:iam::222222222222:role/KeelControlPlane', '{us-east-1}', 'VERIFICATION_FAILED',
     '2026-09-01T02:00:00Z', '{ec2:RunInstances}', NULL, '2026-09-01T02:00:00Z', '2026-09-20T00:00:00Z'),
    ('00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000002', 'main', '333333333333',
     'arn:aws:iam::333333333333:role/KeelControlPlane', '{us-east-1}', 'VERIFIED',
     '2026-09-02T01:00:00Z', '{}', NULL, '2026-09-02T01:00:00Z', NULL),
    -- The role of "production" registered again by globex (its name in another case: the same IAM role), and once
    -- by an account since deleted: V012 gives the role to "production", the earliest live registration.
    ('00000000-0000-4000-8000-0000000000a4', '00000000-0000-4000-8000-000000000002', 'borrowed', '111111111111',
     'arn:aws:iam::111111111111:role/keelcontrolplane', '{us-east-1}', 'VERIFIED',
     '2026-09-03T01:00:00Z', '{}', NULL, '2026-09-03T01:00:00Z', NULL),
    ('00000000-0000-4000-8000-0000000000a5', '00000000-0000-4000-8000-000000000002', 'gone', '111111111111',
     'arn:aws:iam::111111111111:role/KeelControlPlane', '{us-east-1}', 'VERIFIED',
     '2026-08-01T01:00:00Z', '{}', NULL, '2026-08-01T01:00:00Z', '2026-08-15T00:00:00Z');

-- One instance per state; the name says what happened to it.
INSERT INTO instances (id, organization_id, cloud_account_id, name, region, state, vpc_id, subnets, zone_count,
                       wal_type, aku, fsx_throughput_mbps, fsx_count, broker_version, catalog_version, spec_version,
                       inventory, conditions, created_at, updated_at, deleted_at, drift, drift_checked_at) VALUES
    ('00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'running', 'us-east-1', 'RUNNING', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'EBS', 3, NULL, NULL, '1.4.1', 1, 1,
     '{"brokers":[],"bootstrapServers":"b-0.running.invalid:9092","resources":[]}',
     '[{"type":"Ready","status":"True","reason":"Provisioned","message":"","lastTransitionTime":"2026-10-01T10:05:00Z"}]',
     '2026-10-01T10:00:00Z', '2026-10-01T10:05:00Z', NULL, NULL, '2026-10-10T00:00:00Z'),
    ('00000000-0000-4000-8000-000000000102', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'running-scaled', 'us-east-1', 'RUNNING', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"},{"availabilityZone":"us-east-1b","subnetId":"subnet-00000000000000002"},{"availabilityZone":"us-east-1c","subnetId":"subnet-00000000000000003"}]',
     3, 'FSWAL', 6, 768, 1, '1.4.1', 1, 2, '{}', '[]',
     '2026-10-02T07:55:00Z', '2026-10-05T12:00:00Z', NULL, 'broker-1: terminated outside Keel', '2026-10-10T00:00:00Z'),
    ('00000000-0000-4000-8000-000000000103', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-0000000000a3',
     'changing', 'us-east-1', 'CHANGING', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"},{"availabilityZone":"us-east-1b","subnetId":"subnet-00000000000000002"},{"availabilityZone":"us-east-1c","subnetId":"subnet-00000000000000003"}]',
     3, 'S3', 9, NULL, NULL, '1.7.4', 1, 2, '{}', '[]',
     '2026-10-03T00:00:00Z', '2026-10-09T00:00:00Z', NULL, NULL, NULL),
    ('00000000-0000-4000-8000-000000000104', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'failed-scale', 'us-east-1', 'FAILED', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'S3', 3, NULL, NULL, '1.7.4', 1, 2,
     '{}', '[]', '2026-10-04T00:00:00Z', '2026-10-06T00:00:00Z', NULL, NULL, NULL),
    ('00000000-0000-4000-8000-000000000105', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'failed-create', 'us-east-1', 'FAILED', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'S3', 3, NULL, NULL, '1.7.4', 1, 1,
     '{}', '[]', '2026-10-05T00:00:00Z', '2026-10-05T00:10:00Z', NULL, NULL, NULL),
    ('00000000-0000-4000-8000-000000000106', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'creating', 'us-east-1', 'CREATING', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'S3', 3, NULL, NULL, '1.7.4', 1, 1,
     '{}', '[]', '2026-10-09T23:59:00Z', '2026-10-09T23:59:00Z', NULL, NULL, NULL),
    ('00000000-0000-4000-8000-000000000107', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'deleted', 'us-east-1', 'DELETED', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'S3', 3, NULL, NULL, '1.7.4', 1, 1,
     '{}', '[]', '2026-09-10T00:00:00Z', '2026-09-12T00:00:00Z', '2026-09-12T00:00:00Z', NULL, NULL),
    ('00000000-0000-4000-8000-000000000108', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1',
     'deleting', 'us-east-1', 'DELETING', 'vpc-0a1b2c3d4e5f67890',
     '[{"availabilityZone":"us-east-1a","subnetId":"subnet-00000000000000001"}]', 1, 'S3', 3, NULL, NULL, '1.7.4', 1, 1,
     '{}', '[]', '2026-09-15T00:00:00Z', '2026-10-09T00:00:00Z', NULL, NULL, NULL);

INSERT INTO operations (id, organization_id, instance_id, type, state, requested_by, previous_state, previous_spec,
                        error_code, error_message, created_at, started_at, finished_at, reason) VALUES
    ('00000000-0000-4000-8000-000000000201', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000101',
     'CREATE', 'SUCCEEDED', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-10-01T10:00:00Z', '2026-10-01T10:00:01Z', '2026-10-01T10:05:00Z', NULL),
    ('00000000-0000-4000-8000-000000000202', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000102',
     'CREATE', 'SUCCEEDED', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-10-02T07:55:00Z', '2026-10-02T07:55:01Z', '2026-10-02T08:00:00Z', NULL),
    ('00000000-0000-4000-8000-000000000203', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000102',
     'UPDATE', 'SUCCEEDED', 'acme-admin', 'RUNNING',
     '{"network":{"vpcId":"vpc-0a1b2c3d4e5f67890","subnets":[]},"wal":{"type":"FSWAL"},"aku":3,"fsx":{"throughputMBps":768,"count":1},"brokerVersion":"1.4.1","catalogVersion":1}',
     NULL, NULL, '2026-10-05T11:55:00Z', '2026-10-05T11:55:01Z', '2026-10-05T12:00:00Z', NULL),
    ('00000000-0000-4000-8000-000000000204', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000102',
     'REPAIR', 'SUCCEEDED', 'keel-reconciler', 'RUNNING', NULL, NULL, NULL,
     '2026-10-10T00:00:00Z', '2026-10-10T00:00:01Z', '2026-10-10T00:01:00Z', 'broker-1: terminated outside Keel'),
    ('00000000-0000-4000-8000-000000000205', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000103',
     'CREATE', 'SUCCEEDED', 'globex-admin', 'CREATING', NULL, NULL, NULL,
     '2026-10-03T00:00:00Z', '2026-10-03T00:00:01Z', '2026-10-03T00:04:00Z', NULL),
    ('00000000-0000-4000-8000-000000000206', '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000103',
     'UPDATE', 'RUNNING', 'globex-admin', 'RUNNING',
     '{"network":{"vpcId":"vpc-0a1b2c3d4e5f67890","subnets":[]},"wal":{"type":"S3"},"aku":6,"fsx":null,"brokerVersion":"1.7.4","catalogVersion":1}',
     NULL, NULL, '2026-10-09T00:00:00Z', '2026-10-09T00:00:01Z', NULL, NULL),
    ('00000000-0000-4000-8000-000000000207', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000104',
     'CREATE', 'SUCCEEDED', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-10-04T00:00:00Z', '2026-10-04T00:00:01Z', '2026-10-04T00:03:00Z', NULL),
    ('00000000-0000-4000-8000-000000000208', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000104',
     'UPDATE', 'FAILED', 'acme-admin', 'RUNNING', NULL, 'access-denied', 'ec2:RunInstances is not allowed',
     '2026-10-06T00:00:00Z', '2026-10-06T00:00:01Z', '2026-10-06T00:00:30Z', NULL),
    ('00000000-0000-4000-8000-000000000209', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000105',
     'CREATE', 'FAILED', 'acme-admin', 'CREATING', NULL, 'access-denied', 'iam:CreateRole is not allowed',
     '2026-10-05T00:00:00Z', '2026-10-05T00:00:01Z', '2026-10-05T00:10:00Z', NULL),
    ('00000000-0000-4000-8000-000000000210', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000106',
     'CREATE', 'RUNNING', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-10-09T23:59:00Z', '2026-10-09T23:59:01Z', NULL, NULL),
    ('00000000-0000-4000-8000-000000000211', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000107',
     'CREATE', 'SUCCEEDED', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-09-10T00:00:00Z', '2026-09-10T00:00:01Z', '2026-09-10T00:05:00Z', NULL),
    ('00000000-0000-4000-8000-000000000212', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000107',
     'DELETE', 'SUCCEEDED', 'acme-admin', 'RUNNING', NULL, NULL, NULL,
     '2026-09-11T23:55:00Z', '2026-09-11T23:55:01Z', '2026-09-12T00:00:00Z', NULL),
    ('00000000-0000-4000-8000-000000000213', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000108',
     'CREATE', 'SUCCEEDED', 'acme-admin', 'CREATING', NULL, NULL, NULL,
     '2026-09-15T00:00:00Z', '2026-09-15T00:00:01Z', '2026-09-15T00:05:00Z', NULL),
    ('00000000-0000-4000-8000-000000000214', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000108',
     'DELETE', 'RUNNING', 'acme-admin', 'RUNNING', NULL, NULL, NULL,
     '2026-10-09T00:00:00Z', '2026-10-09T00:00:01Z', NULL, NULL);

INSERT INTO operation_steps (operation_id, position, name, state, attempts, last_worker, message, started_at, finished_at) VALUES
    ('00000000-0000-4000-8000-000000000201', 0, 'create-buckets', 'SUCCEEDED', 1, 'worker-a', NULL, '2026-10-01T10:00:01Z', '2026-10-01T10:01:00Z'),
    ('00000000-0000-4000-8000-000000000201', 1, 'launch-brokers', 'SUCCEEDED', 2, 'worker-b', 'retried after throttling', '2026-10-01T10:01:00Z', '2026-10-01T10:05:00Z'),
    ('00000000-0000-4000-8000-000000000210', 0, 'create-buckets', 'SUCCEEDED', 1, 'worker-a', NULL, '2026-10-09T23:59:01Z', '2026-10-09T23:59:30Z'),
    ('00000000-0000-4000-8000-000000000210', 1, 'launch-brokers', 'RUNNING', 1, 'worker-a', NULL, '2026-10-09T23:59:30Z', NULL),
    ('00000000-0000-4000-8000-000000000210', 2, 'publish-endpoint', 'PENDING', 0, NULL, NULL, NULL, NULL);

INSERT INTO idempotency_records (organization_id, idempotency_key, request_method, request_path, request_hash,
                                 response_status, response_headers, response_body, created_at) VALUES
    ('00000000-0000-4000-8000-000000000001', 'create-running-1', 'POST', '/api/v1/instances', 'sha256:00ff',
     202, '{"Location":["/api/v1/operations/00000000-0000-4000-8000-000000000201"]}', convert_to('{"id":"00000000-0000-4000-8000-000000000201"}', 'UTF8'),
     '2026-10-01T10:00:00Z'),
    ('00000000-0000-4000-8000-000000000001', 'in-flight', 'PATCH', '/api/v1/instances/00000000-0000-4000-8000-000000000102',
     'sha256:11ee', NULL, NULL, NULL, '2026-10-09T23:59:59Z');

INSERT INTO audit_events (id, organization_id, occurred_at, actor_subject, actor_username, action, resource_type,
                          resource_id, request_id, before, after) VALUES
    ('00000000-0000-4000-8000-000000000301', '00000000-0000-4000-8000-000000000001', '2026-10-01T10:00:00Z',
     '5b1e0c1a-acme-admin', 'acme-admin', 'instance.create', 'instance', '00000000-0000-4000-8000-000000000101',
     'req-1', NULL, '{"name":"running","aku":3}'),
    ('00000000-0000-4000-8000-000000000302', '00000000-0000-4000-8000-000000000001', '2026-10-10T00:00:00Z',
     'keel-reconciler', 'keel-reconciler', 'instance.repair', 'instance', '00000000-0000-4000-8000-000000000102',
     NULL, NULL, '{"operationId":"00000000-0000-4000-8000-000000000204","reason":"broker-1: terminated outside Keel"}');

INSERT INTO scheduled_tasks (task_name, task_instance, task_data, execution_time, picked, picked_by, last_success,
                             last_failure, consecutive_failures, last_heartbeat, version, priority) VALUES
    ('run-operation', '00000000-0000-4000-8000-000000000206', NULL, '2026-10-09T00:00:00Z', true, 'worker-a', NULL,
     NULL, 0, '2026-10-09T00:00:05Z', 2, 0);

INSERT INTO metric_samples (instance_id, name, resolution, bucket_start, node_id, value, samples) VALUES
    ('00000000-0000-4000-8000-000000000101', 'bytesInPerSec', 10, '2026-10-09T23:59:50Z', 0, 1048576, 1),
    ('00000000-0000-4000-8000-000000000101', 'bytesInPerSec', 60, '2026-10-09T23:59:00Z', 0, 1000000, 6),
    ('00000000-0000-4000-8000-000000000101', 'bytesInPerSec', 3600, '2026-10-09T23:00:00Z', 0, 900000, 360);

INSERT INTO broker_reports (instance_id, node_id, reported_at, address, process_up, listener_up, quorum_ok, detail,
                            ec2_instance_id) VALUES
    ('00000000-0000-4000-8000-000000000101', 0, '2026-10-09T23:59:55Z', '10.0.1.10:9092', true, true, true, NULL, 'i-0123456789abcdef0'),
    ('00000000-0000-4000-8000-000000000102', 1, '2026-10-09T23:50:00Z', '10.0.2.10:9092', false, false, false,
     'process exited', 'i-0123456789abcdef1');

INSERT INTO broker_drains (instance_id, ec2_instance_id, node_id, drain_to, requested_at, status, partitions_remaining,
                           message, updated_at) VALUES
    ('00000000-0000-4000-8000-000000000102', 'i-0123456789abcdef5', 5, '{0,1,2}', '2026-10-05T11:58:00Z', 'DRAINED', 0,
     NULL, '2026-10-05T11:59:00Z');
