package dev.keel.controlplane.billing;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.support.Database;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Buyers with a Marketplace subscription each, in the test database and in the test stack's AWS API emulator: an
 * organization whose one instance ran 3 AKU from the subscription's start (by default {@value #LINKED_AGO_MINUTES}
 * minutes ago) and 6 AKU from a later time (by default {@value #SCALED_AGO_MINUTES} minutes ago) on. What the ledger must hold and what the emulator
 * received are read back for the tests to compare.
 */
final class MeteredBuyers {

    /** Early enough for several whole hours, late enough that none leaves AWS's 6-hour window during a test. */
    static final int LINKED_AGO_MINUTES = 270;
    static final int SCALED_AGO_MINUTES = 140;
    /** The local profile's product code, which the backend processes meter under. */
    private static final String PRODUCT = "keel-local-development";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** {@code endedAt}: when the subscription ended, null while it runs. */
    record Buyer(UUID subscriptionId, String account, String licenseArn, Instant linkedAt, Instant scaledAt,
                 Instant endedAt) {

        /**
         * The hours billed by {@code now}, each with its AKU-hours rounded to the nearest (a half up): those that
         * have ended since the link, or, once the subscription ended, every hour up to its end.
         */
        Map<Instant, Integer> expectedHours(Instant now) {
            Map<Instant, Integer> hours = new HashMap<>();
            for (Instant hour = linkedAt.truncatedTo(ChronoUnit.HOURS); billed(hour, now); hour = hour.plus(Duration.ofHours(1))) {
                long akuMinutes = 0;
                for (Instant minute = hour; minute.isBefore(hour.plus(Duration.ofHours(1))); minute = minute.plusSeconds(60)) {
                    if (!minute.isBefore(linkedAt) && (endedAt == null || minute.isBefore(endedAt))) {
                        akuMinutes += minute.isBefore(scaledAt) ? 3 : 6;
                    }
                }
                hours.put(hour, (int) ((akuMinutes + 30) / 60));
            }
            return hours;
        }

        private boolean billed(Instant hour, Instant now) {
            return endedAt != null ? hour.isBefore(endedAt) : !hour.plus(Duration.ofHours(1)).isAfter(now);
        }
    }

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final String emulator;

    MeteredBuyers(String databaseUrl) {
        DataSource dataSource = Database.dataSource(databaseUrl);
        this.jdbc = JdbcClient.create(dataSource);
        this.transactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
        this.emulator = System.getenv().getOrDefault("KEEL_MARKETPLACE_ENDPOINT", "http://localhost:24577");
    }

    JdbcClient jdbc() {
        return jdbc;
    }

    /**
     * {@code count} subscribed buyers, each in an organization of its own, linked at the same minute, in one
     * transaction: a metering run sees all of them or none.
     */
    List<Buyer> subscribe(int count) {
        return subscribe(count, Duration.ofMinutes(LINKED_AGO_MINUTES), Duration.ofMinutes(SCALED_AGO_MINUTES));
    }

    /** Like {@link #subscribe(int)}, linked {@code linkedAgo} and scaled to 6 AKU {@code scaledAgo}. */
    List<Buyer> subscribe(int count, Duration linkedAgo, Duration scaledAgo) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        Instant linked = now.minus(linkedAgo);
        Instant scaled = now.minus(scaledAgo);
        return transactions.execute(tx -> {
            List<Buyer> buyers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                try {
                    buyers.add(subscribe(linked, scaled));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return buyers;
        });
    }

    private Buyer subscribe(Instant linked, Instant scaled) throws Exception {
        String unique = UUID.randomUUID().toString().replace("-", "");
        UUID organization = UUID.randomUUID();
        UUID cloudAccount = UUID.randomUUID();
        UUID instance = UUID.randomUUID();
        UUID subscription = UUID.randomUUID();
        String account = String.valueOf(100_000_000_000L + Math.floorMod(unique.hashCode(), 899_999_999_999L));
        String licence = "arn:aws:license-manager::" + account + ":license:l-" + unique.substring(0, 24);
        jdbc.sql("INSERT INTO organizations (id, slug, name, external_id) VALUES (?, ?, ?, ?)")
                .params(organization, "metered-" + unique.substring(0, 10), "Metered " + unique.substring(0, 6),
                        "keel-" + unique.substring(0, 16)).update();
        jdbc.sql("""
                INSERT INTO cloud_accounts (id, organization_id, name, aws_account_id, role_arn, regions, status)
                VALUES (?, ?, 'metered', ?, ?, '{us-east-1}', 'VERIFIED')
                """).params(cloudAccount, organization, account, "arn:aws:iam::" + account + ":role/Keel").update();
        jdbc.sql("""
                INSERT INTO instances (id, organization_id, cloud_account_id, name, region, state, vpc_id, subnets,
                                       zone_count, wal_type, aku, broker_version, catalog_version,
                                       s3_gateway_endpoint, listener_security)
                VALUES (?, ?, ?, 'metered', 'us-east-1', 'RUNNING', 'vpc-0a1b2c3d4e5f67890',
                        '[{"availabilityZone": "us-east-1a", "subnetId": "subnet-00000000000000000"}]', 1, 'S3', 6,
                        '1.6.0', 1, 'NONE', 'SASL_SSL')
                """).params(instance, organization, cloudAccount).update();
        jdbc.sql("""
                INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at, ended_at)
                VALUES (?, ?, 3, ?, ?), (?, ?, 6, ?, NULL)
                """).params(instance, organization, Timestamp.from(linked), Timestamp.from(scaled), instance,
                organization, Timestamp.from(scaled)).update();
        jdbc.sql("""
                INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                       license_arn, state, state_event_at, created_at)
                VALUES (?, ?, ?, ?, ?, 'ACTIVE', ?, ?)
                """).params(subscription, organization, PRODUCT, account, licence, Timestamp.from(linked),
                Timestamp.from(linked)).update();
        String body = JSON.writeValueAsString(Map.of("registrationToken", "t-" + unique, "productCode", PRODUCT,
                "customerIdentifier", "cust-" + unique.substring(0, 12), "customerAWSAccountId", account,
                "licenseArn", licence));
        HttpResponse<String> seeded = HTTP.send(HttpRequest.newBuilder(URI.create(emulator + "/_emulator/marketplace/customers"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(201);
        return new Buyer(subscription, account, licence, linked, scaled, null);
    }

    /** The ledger's records of {@code buyer}: hour → (state, quantity, AWS's id, attempts). */
    Map<Instant, Ledgered> ledger(Buyer buyer) {
        Map<Instant, Ledgered> rows = new HashMap<>();
        jdbc.sql("""
                        SELECT hour, state, quantity, metering_record_id, attempts, last_error
                        FROM metering_records WHERE subscription_id = ?
                        """)
                .param(buyer.subscriptionId())
                .query(rs -> {
                    rows.put(rs.getTimestamp("hour").toInstant(), new Ledgered(rs.getString("state"),
                            rs.getInt("quantity"), rs.getString("metering_record_id"), rs.getInt("attempts"),
                            rs.getString("last_error")));
                });
        return rows;
    }

    record Ledgered(String state, int quantity, String meteringRecordId, int attempts, String lastError) {
    }

    /** The agreement of {@code buyer} ended at {@code endedAt}. */
    Buyer end(Buyer buyer, Instant endedAt) {
        jdbc.sql("UPDATE marketplace_subscriptions SET state = 'ENDED', state_event_at = ?, ended_at = ? WHERE id = ?")
                .params(Timestamp.from(endedAt), Timestamp.from(endedAt), buyer.subscriptionId()).update();
        return new Buyer(buyer.subscriptionId(), buyer.account(), buyer.licenseArn(), buyer.linkedAt(),
                buyer.scaledAt(), endedAt);
    }

    /** Takes {@code buyer}'s subscription and its ledger out of a database other tests share. */
    void forget(Buyer buyer) {
        jdbc.sql("DELETE FROM metering_records WHERE subscription_id = ?").param(buyer.subscriptionId()).update();
        jdbc.sql("DELETE FROM marketplace_subscriptions WHERE id = ?").param(buyer.subscriptionId()).update();
    }

    /** What the emulator accepted for {@code buyer} (its licence), as its admin API shows. */
    List<JsonNode> received(Buyer buyer) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(emulator
                + "/_emulator/marketplace/meter-records?productCode=" + PRODUCT)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        List<JsonNode> records = new ArrayList<>();
        for (JsonNode record : JSON.readTree(response.body()).get("records")) {
            if (buyer.account().equals(record.get("customerAWSAccountId").asString())) {
                records.add(record);
            }
        }
        return records;
    }

    /**
     * Every ended hour of every buyer is in the ledger once, ACCEPTED with the right quantity, and AWS has exactly
     * that record, under the buyer's licence, with the ledger's id. Returns how often AWS received each record.
     */
    Map<String, Integer> assertMeteredExactlyOnce(List<Buyer> buyers, Instant now) throws Exception {
        Map<String, Integer> receipts = new HashMap<>();
        for (Buyer buyer : buyers) {
            Map<Instant, Integer> expected = buyer.expectedHours(now);
            Map<Instant, Ledgered> ledger = ledger(buyer);
            // An hour that ended after now (the test ran across an hour's end) is not this check's.
            ledger.keySet().removeIf(hour -> hour.plus(Duration.ofHours(1)).isAfter(now));
            assertThat(ledger.keySet()).as("the ledger's hours").isEqualTo(expected.keySet());
            List<JsonNode> received = received(buyer);
            received.removeIf(r -> !ledger.containsKey(Instant.parse(r.get("timestamp").asString())));
            assertThat(received).as("records AWS has for " + buyer.account()).hasSameSizeAs(expected.keySet());
            for (JsonNode record : received) {
                Instant hour = Instant.parse(record.get("timestamp").asString());
                Ledgered row = ledger.get(hour);
                assertThat(row).as("the ledger's record of " + hour).isNotNull();
                assertThat(row.state()).isEqualTo("ACCEPTED");
                assertThat(row.quantity()).as("quantity of " + hour).isEqualTo(expected.get(hour));
                assertThat(record.get("quantity").asInt()).isEqualTo(row.quantity());
                assertThat(record.get("meteringRecordId").asString()).isEqualTo(row.meteringRecordId());
                assertThat(record.get("licenseArn").asString()).isEqualTo(buyer.licenseArn());
                assertThat(record.get("dimension").asString()).isEqualTo("aku_hours");
                receipts.put(row.meteringRecordId(), record.get("receipts").asInt());
            }
        }
        return receipts;
    }

    /** Waits until no record is left to send (every one settled) and every buyer's ended hours are written. */
    void awaitSettled(List<Buyer> buyers, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Instant now = Instant.now();
            boolean written = buyers.stream().allMatch(b -> ledger(b).keySet().equals(b.expectedHours(now).keySet()));
            Integer open = jdbc.sql("SELECT count(*) FROM metering_records WHERE state IN ('PENDING', 'SENT')")
                    .query(Integer.class).single();
            if (written && open == 0) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("The metering ledger did not settle within " + within.toSeconds() + " s");
    }
}
