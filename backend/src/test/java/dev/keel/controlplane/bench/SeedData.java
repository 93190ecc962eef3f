package dev.keel.controlplane.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import javax.sql.DataSource;

import dev.keel.fixtures.NoCloudProvisioningDriver;
import org.flywaydb.core.Flyway;

/**
 * Organizations, cloud accounts and instances written straight into a database migrated to the newest schema, as
 * the backend itself would have left them: each instance with the create operation that made it, the audit event
 * of that create and, while it runs, its capacity period. Deterministic for a given seed.
 */
final class SeedData {

    static final String[] WORDS = {"orders", "payments", "clicks", "events", "audit", "metrics", "search", "billing",
            "inventory", "telemetry"};

    record Org(String slug, UUID id, UUID accountId, List<Seeded> instances) {
    }

    /** One seeded instance; {@code aku} as the row holds it. */
    record Seeded(UUID id, String name, String state, String wal, int aku) {
    }

    private SeedData() {
    }

    static List<Org> into(DataSource database, int organizations, int instances, long seed) throws SQLException {
        Flyway.configure().dataSource(database).locations("classpath:db/migration").load().migrate();
        Random random = new Random(seed);
        Instant now = Instant.now();
        List<Org> orgs = new ArrayList<>();
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            try (Batch org = new Batch(connection, "INSERT INTO organizations (id, slug, name, external_id) VALUES (?, ?, ?, ?)");
                 Batch account = new Batch(connection, """
                         INSERT INTO cloud_accounts (id, organization_id, name, aws_account_id, role_arn, regions, status,
                                                     verification_checked_at)
                         VALUES (?, ?, 'production', ?, ?, '{us-east-1,eu-west-1}', 'VERIFIED', ?)
                         """);
                 Batch instance = new Batch(connection, """
                         INSERT INTO instances (id, organization_id, cloud_account_id, name, region, state, vpc_id, subnets,
                                                zone_count, wal_type, aku, fsx_throughput_mbps, fsx_count, broker_version,
                                                catalog_version, inventory, conditions, created_at, updated_at, deleted_at,
                                                s3_gateway_endpoint, listener_security)
                         VALUES (?, ?, ?, ?, 'us-east-1', ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?, 1, ?::jsonb, ?::jsonb, ?, ?, ?, 'CREATE',
                                 'SASL_SSL')
                         """);
                 Batch operation = new Batch(connection, """
                         INSERT INTO operations (id, organization_id, instance_id, type, state, requested_by, previous_state,
                                                 error_code, error_message, created_at, started_at, finished_at)
                         VALUES (?, ?, ?, 'CREATE', ?, ?, 'CREATING', ?, ?, ?, ?, ?)
                         """);
                 Batch audit = new Batch(connection, """
                         INSERT INTO audit_events (id, organization_id, occurred_at, actor_subject, actor_username, action,
                                                   resource_type, resource_id, after)
                         VALUES (?, ?, ?, ?, ?, 'instance.create', 'instance', ?, ?::jsonb)
                         """);
                 Batch capacity = new Batch(connection, """
                         INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at) VALUES (?, ?, ?, ?)
                         """)) {
                for (int o = 0; o < organizations; o++) {
                    UUID orgId = new UUID(random.nextLong(), random.nextLong());
                    UUID accountId = new UUID(random.nextLong(), random.nextLong());
                    String slug = slug(o);
                    String awsAccount = String.format("%012d", 100_000_000_000L + o);
                    org.add(orgId, slug, slug, "keel-" + orgId.toString().replace("-", ""));
                    account.add(accountId, orgId, awsAccount, "arn:aws:iam::" + awsAccount + ":role/KeelControlPlane",
                            Timestamp.from(now.minus(Duration.ofDays(200))));
                    List<Seeded> seeded = new ArrayList<>();
                    int count = instances / organizations + (o < instances % organizations ? 1 : 0);
                    for (int i = 0; i < count; i++) {
                        Seeded s = seedOne(random, i);
                        seeded.add(s);
                        Instant created = now.minus(Duration.ofMinutes(random.nextInt(180 * 24 * 60)));
                        Instant ready = created.plus(Duration.ofMinutes(5));
                        boolean deleted = s.state().equals("DELETED");
                        boolean failed = s.state().equals("FAILED");
                        int zones = s.wal().equals("EBS") ? 1 : 3;
                        instance.add(s.id(), orgId, accountId, s.name(), s.state(), NoCloudProvisioningDriver.VPC, subnets(zones), zones, s.wal(), s.aku(),
                                s.wal().equals("FSWAL") ? 768 : null, s.wal().equals("FSWAL") ? 1 : null,
                                s.wal().equals("S3") ? "1.7.4" : "1.4.1",
                                failed ? "{}" : inventory(s, zones), conditions(s.state(), ready),
                                Timestamp.from(created), Timestamp.from(deleted ? ready.plus(Duration.ofDays(1)) : ready),
                                deleted ? Timestamp.from(ready.plus(Duration.ofDays(1))) : null);
                        operation.add(new UUID(random.nextLong(), random.nextLong()), orgId, s.id(),
                                failed ? "FAILED" : "SUCCEEDED", slug + "-admin", failed ? "access-denied" : null,
                                failed ? "iam:CreateRole is not allowed" : null, Timestamp.from(created),
                                Timestamp.from(created.plusSeconds(1)), Timestamp.from(ready));
                        audit.add(new UUID(random.nextLong(), random.nextLong()), orgId, Timestamp.from(created),
                                "subject-" + slug + "-admin", slug + "-admin", s.id().toString(),
                                "{\"name\":\"" + s.name() + "\",\"aku\":" + s.aku() + "}");
                        if (s.state().equals("RUNNING")) {
                            capacity.add(s.id(), orgId, s.aku(), Timestamp.from(ready));
                        }
                    }
                    orgs.add(new Org(slug, orgId, accountId, List.copyOf(seeded)));
                    if (instance.pending >= 1000) {
                        Batch.flush(org, account, instance, operation, audit, capacity);
                    }
                }
                Batch.flush(org, account, instance, operation, audit, capacity);
            }
            connection.commit();
        }
        return orgs;
    }

    static String slug(int organization) {
        return String.format("bench-%04d", organization + 1);
    }

    /**
     * 85 % running, 10 % deleted, 5 % failed; S3 WAL on three zones for most, EBS on one zone, FSWAL with one
     * 768 MBps file system (which carries up to 15 AKU).
     */
    private static Seeded seedOne(Random random, int index) {
        int roll = random.nextInt(100);
        String state = roll < 85 ? "RUNNING" : roll < 95 ? "DELETED" : "FAILED";
        int wal = random.nextInt(100);
        String type = wal < 60 ? "S3" : wal < 85 ? "EBS" : "FSWAL";
        int aku = switch (type) {
            case "S3" -> 3 * (1 + random.nextInt(8));
            case "EBS" -> 3 * (1 + random.nextInt(2));
            default -> 3 * (2 + random.nextInt(3));
        };
        return new Seeded(new UUID(random.nextLong(), random.nextLong()), WORDS[index % WORDS.length] + "-" + index,
                state, type, aku);
    }

    static String subnets(int zones) {
        List<String> subnets = new ArrayList<>();
        for (int z = 0; z < zones; z++) {
            subnets.add("{\"availabilityZone\":\"us-east-1" + (char) ('a' + z) + "\",\"subnetId\":\"" + NoCloudProvisioningDriver.subnet(z) + "\"}");
        }
        return "[" + String.join(",", subnets) + "]";
    }

    /** What the no-cloud driver reports for a provisioned instance: brokers across the zones and their resources. */
    private static String inventory(Seeded s, int zones) {
        int brokers = Math.max(3, (int) Math.ceil(s.aku() / 1.16));
        List<String> broker = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        List<String> resources = new ArrayList<>(List.of(
                resource("s3-bucket", s.name() + "-data"), resource("s3-bucket", s.name() + "-ops"),
                resource("iam-role", s.name() + "-broker"), resource("security-group", "sg-" + s.id().toString().substring(0, 17))));
        for (int n = 0; n < brokers; n++) {
            String address = "b-" + n + "." + s.name() + ".nocloud.invalid:9092";
            addresses.add(address);
            broker.add("{\"nodeId\":" + n + ",\"availabilityZone\":\"us-east-1" + (char) ('a' + n % zones)
                    + "\",\"address\":\"" + address + "\"}");
            resources.add(resource("ec2-instance", "i-" + s.id().toString().substring(0, 8) + String.format("%09d", n)));
        }
        return "{\"bootstrapServers\":\"" + String.join(",", addresses) + "\",\"brokers\":[" + String.join(",", broker)
                + "],\"resources\":[" + String.join(",", resources) + "]}";
    }

    private static String resource(String type, String id) {
        return "{\"type\":\"" + type + "\",\"id\":\"" + id + "\"}";
    }

    private static String conditions(String state, Instant at) {
        String ready = switch (state) {
            case "RUNNING" -> "\"status\":\"True\",\"reason\":\"Provisioned\",\"message\":\"Every broker is running.\"";
            case "FAILED" -> "\"status\":\"False\",\"reason\":\"access-denied\",\"message\":\"iam:CreateRole is not allowed\"";
            default -> "\"status\":\"False\",\"reason\":\"Deleted\",\"message\":\"The instance is deleted.\"";
        };
        return "[{\"type\":\"Ready\"," + ready + ",\"lastTransitionTime\":\"" + at + "\"}]";
    }

    /** A prepared statement whose rows are sent together, after the rows they refer to. */
    private static final class Batch implements AutoCloseable {

        private final PreparedStatement statement;
        private int pending;

        Batch(Connection connection, String sql) throws SQLException {
            this.statement = connection.prepareStatement(sql);
        }

        void add(Object... values) throws SQLException {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i]);
            }
            statement.addBatch();
            pending++;
        }

        /** In the order given: a table's rows before those of the tables that reference it. */
        static void flush(Batch... batches) throws SQLException {
            for (Batch batch : batches) {
                batch.statement.executeBatch();
                batch.pending = 0;
            }
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }
}
