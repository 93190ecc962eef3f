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
 * minutes ago) and 6 AKU from a later time (by default {@value #SCALED_AGO_MINUTES} minutes ago) on, both on a whole
 * minute. What the ledger must hold and what the emulator received are read back for the tests to compare.
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
    record Buyer(UUID subscriptionId, UUID organizationId, UUID instanceId, String account, String licenseArn,
                 String customerIdentifier, Instant linkedAt, Instant scaledAt, Instant endedAt) {

        /**
         * The hours billed once the ledger is written up to {@code writtenBy} (hours that ended by then), each with
         * its AKU-minutes: every hour since the link, up to the subscription's end once it ended.
         */
        Map<Instant, Integer> expectedHours(Instant writtenBy) {
            Map<Instant, Integer> hours = new HashMap<>();
            for (Instant hour = linkedAt.truncatedTo(ChronoUnit.HOURS); billed(hour, writtenBy); hour = hour.plus(Duration.ofHours(1))) {
                int akuMinutes = 0;
                for (Instant minute = hour; minute.isBefore(hour.plus(Duration.ofHours(1))); minute = minute.plusSeconds(60)) {
                    if (!minute.isBefore(linkedAt) && (endedAt == null || minute.isBefore(endedAt))) {
                        akuMinutes += minute.isBefore(scaledAt) ? 3 : 6;
                    }
                }
                hours.put(hour, akuMinutes);
            }
            return hours;
        }

        private boolean billed(Instant hour, Instant writtenBy) {
            return !hour.plus(Duration.ofHours(1)).isAfter(writtenBy) && (endedAt == null || hour.isBefore(endedAt));
        }

        Buyer ended(Instant at) {
            return new Buyer(subscriptionId, organizationId, instanceId, account, licenseArn, customerIdentifier,
                    linkedAt, scaledAt, at);
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
        return subscribe(count, now.minus(linkedAgo), now.minus(scaledAgo));
    }

    /** Like {@link #subscribe(int)}, linked at {@code linked} and scaled to 6 AKU at {@code scaled}. */
    List<Buyer> subscribe(int count, Instant linked, Instant scaled) {
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
        jdbc.sql("INSERT INTO organizations (id, slug, name, external_id) VALUES (?, ?, ?, ?)")
                .params(organization, "metered-" + unique.substring(0, 10), "Metered " + unique.substring(0, 6),
                        "keel-" + unique.substring(0, 16)).update();
        return subscribe(organization, linked, scaled);
    }

    /**
     * A buyer of its own subscribed for {@code organization} from {@code linked}, which runs an instance of its own
     * (and whatever else it runs): 3 AKU from {@code linked}, 6 AKU from {@code scaled}.
     */
    Buyer subscribe(UUID organization, Instant linked, Instant scaled) throws Exception {
        String unique = UUID.randomUUID().toString().replace("-", "");
        UUID cloudAccount = UUID.randomUUID();
        UUID instance = UUID.randomUUID();
        String account = String.valueOf(100_000_000_000L + Math.floorMod(unique.hashCode(), 899_999_999_999L));
        jdbc.sql("""
                INSERT INTO cloud_accounts (id, organization_id, name, aws_account_id, role_arn, regions, status)
                VALUES (?, ?, ?, ?, ?, '{us-east-1}', 'VERIFIED')
                """).params(cloudAccount, organization, "metered-" + unique.substring(0, 8), account,
                "arn:aws:iam::" + account + ":role/Keel").update();
        jdbc.sql("""
                INSERT INTO instances (id, organization_id, cloud_account_id, name, region, state, vpc_id, subnets,
                                       zone_count, wal_type, aku, broker_version, catalog_version,
                                       s3_gateway_endpoint, listener_security)
                VALUES (?, ?, ?, ?, 'us-east-1', 'RUNNING', 'vpc-0a1b2c3d4e5f67890',
                        '[{"availabilityZone": "us-east-1a", "subnetId": "subnet-00000000000000000"}]', 1, 'S3', 6,
                        '1.6.0', 1, 'NONE', 'SASL_SSL')
                """).params(instance, organization, cloudAccount, "metered-" + unique.substring(0, 8)).update();
        jdbc.sql("""
                INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at, ended_at)
                VALUES (?, ?, 3, ?, ?), (?, ?, 6, ?, NULL)
                """).params(instance, organization, Timestamp.from(linked), Timestamp.from(scaled), instance,
                organization, Timestamp.from(scaled)).update();
        Buyer buyer = new Buyer(UUID.randomUUID(), organization, instance, account, licence(account),
                "cust-" + unique.substring(0, 12), linked, scaled, null);
        link(buyer);
        return buyer;
    }

    /**
     * The buyer's subscription ended at {@code endedAt} and the buyer subscribed again from {@code linkedAt}, with a
     * new licence, for the same organization: the new subscription, linked at {@code linkedAt}.
     */
    Buyer resubscribe(Buyer buyer, Instant endedAt, Instant linkedAt) throws Exception {
        end(buyer, endedAt);
        Buyer again = new Buyer(UUID.randomUUID(), buyer.organizationId(), buyer.instanceId(), buyer.account(),
                licence(buyer.account()), buyer.customerIdentifier(), linkedAt, buyer.scaledAt(), null);
        link(again);
        return again;
    }

    /** The buyer's subscription, ACTIVE from its link, and the buyer as AWS knows it (AWS's customer stays the same). */
    private void link(Buyer buyer) throws Exception {
        jdbc.sql("""
                INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                       license_arn, state, state_event_at, created_at)
                VALUES (?, ?, ?, ?, ?, 'ACTIVE', ?, ?)
                """).params(buyer.subscriptionId(), buyer.organizationId(), PRODUCT, buyer.account(),
                buyer.licenseArn(), Timestamp.from(buyer.linkedAt()), Timestamp.from(buyer.linkedAt())).update();
        seed(buyer, true);
    }

    /** AWS no longer takes the buyer's usage: it says the customer is not subscribed. */
    void unsubscribedAtAws(Buyer buyer) throws Exception {
        seed(buyer, false);
    }

    /** The buyer's licence, as AWS knows it now (the latest seeding wins). */
    private void seed(Buyer buyer, boolean subscribed) throws Exception {
        String body = JSON.writeValueAsString(Map.of("registrationToken", "t-" + UUID.randomUUID(), "productCode", PRODUCT,
                "customerIdentifier", buyer.customerIdentifier(), "customerAWSAccountId", buyer.account(),
                "licenseArn", buyer.licenseArn(), "subscribed", subscribed));
        HttpResponse<String> seeded = HTTP.send(HttpRequest.newBuilder(URI.create(emulator + "/_emulator/marketplace/customers"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(seeded.statusCode()).as(seeded.body()).isEqualTo(201);
    }

    private static String licence(String account) {
        return "arn:aws:license-manager::" + account + ":license:l-" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
    }

    /** The buyer's instance ran {@code aku} over {@code [from, to)} only ({@code to} null: still runs). */
    void ranOnly(Buyer buyer, int aku, Instant from, Instant to) {
        jdbc.sql("DELETE FROM capacity_periods WHERE instance_id = ?").param(buyer.instanceId()).update();
        jdbc.sql("""
                INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at, ended_at)
                VALUES (?, ?, ?, ?, ?)
                """).params(buyer.instanceId(), buyer.organizationId(), aku, Timestamp.from(from),
                to == null ? null : Timestamp.from(to)).update();
    }

    /**
     * Until when a metering run now knows what happened, by the database's clock: now, or when the agreement-event
     * queue was last read to its end if that is earlier. A run writes the hours that ended a margin before this.
     */
    Instant knownUntil() {
        return jdbc.sql("SELECT LEAST(statement_timestamp(), drained_at) FROM marketplace_agreement_queue")
                .query(Timestamp.class).single().toInstant();
    }

    /** The ledger's records of {@code buyer}'s account: hour → (subscription, state, quantity, AWS's id, attempts). */
    Map<Instant, Ledgered> ledger(Buyer buyer) {
        Map<Instant, Ledgered> rows = new HashMap<>();
        jdbc.sql("""
                        SELECT subscription_id, hour, state, quantity, metering_record_id, attempts, last_error
                        FROM metering_records WHERE customer_aws_account_id = ?
                        """)
                .param(buyer.account())
                .query(rs -> {
                    rows.put(rs.getTimestamp("hour").toInstant(), new Ledgered(rs.getObject("subscription_id", UUID.class),
                            rs.getString("state"), rs.getInt("quantity"), rs.getString("metering_record_id"),
                            rs.getInt("attempts"), rs.getString("last_error")));
                });
        return rows;
    }

    record Ledgered(UUID subscriptionId, String state, int quantity, String meteringRecordId, int attempts,
                    String lastError) {
    }

    /** The agreement of {@code buyer} ended at {@code endedAt}. */
    Buyer end(Buyer buyer, Instant endedAt) {
        jdbc.sql("UPDATE marketplace_subscriptions SET state = 'ENDED', state_event_at = ?, ended_at = ? WHERE id = ?")
                .params(Timestamp.from(endedAt), Timestamp.from(endedAt), buyer.subscriptionId()).update();
        return buyer.ended(endedAt);
    }

    /**
     * Takes {@code buyer}'s subscriptions, its ledger and its instance out of a database other tests share (its
     * organization stays).
     */
    void forget(Buyer buyer) {
        jdbc.sql("DELETE FROM metering_records WHERE customer_aws_account_id = ?").param(buyer.account()).update();
        // The backend may be applying an agreement event to the subscription meanwhile: locked first, no event can
        // name it between the two deletes.
        transactions.executeWithoutResult(status -> {
            jdbc.sql("SELECT id FROM marketplace_subscriptions WHERE customer_aws_account_id = ? FOR UPDATE")
                    .param(buyer.account()).query().listOfRows();
            jdbc.sql("""
                    DELETE FROM marketplace_agreement_events
                    WHERE subscription_id IN (SELECT id FROM marketplace_subscriptions WHERE customer_aws_account_id = ?)
                    """).param(buyer.account()).update();
            jdbc.sql("DELETE FROM marketplace_subscriptions WHERE customer_aws_account_id = ?").param(buyer.account())
                    .update();
        });
        jdbc.sql("DELETE FROM capacity_periods WHERE instance_id = ?").param(buyer.instanceId()).update();
        jdbc.sql("DELETE FROM instances WHERE id = ?").param(buyer.instanceId()).update();
        jdbc.sql("DELETE FROM cloud_accounts WHERE aws_account_id = ?").param(buyer.account()).update();
    }

    /** What the emulator accepted for {@code buyer} (its account), as its admin API shows. */
    List<JsonNode> received(Buyer buyer) throws Exception {
        return received().getOrDefault(buyer.account(), List.of());
    }

    /** What the emulator accepted, by the account it was for. */
    Map<String, List<JsonNode>> received() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(emulator
                + "/_emulator/marketplace/meter-records?productCode=" + PRODUCT)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, List<JsonNode>> records = new HashMap<>();
        for (JsonNode record : JSON.readTree(response.body()).get("records")) {
            records.computeIfAbsent(record.get("customerAWSAccountId").asString(), a -> new ArrayList<>()).add(record);
        }
        return records;
    }

    /**
     * Every hour of every buyer written by {@code writtenBy} is in the ledger once, ACCEPTED with the right quantity,
     * and AWS has exactly that record, under the buyer's licence, with the ledger's id. Returns how often AWS
     * received each record.
     */
    Map<String, Integer> assertMeteredExactlyOnce(List<Buyer> buyers, Instant writtenBy) throws Exception {
        Map<String, Integer> receipts = new HashMap<>();
        for (Buyer buyer : buyers) {
            Map<Instant, Integer> expected = buyer.expectedHours(writtenBy);
            Map<Instant, Ledgered> ledger = ledger(buyer);
            // An hour written since (the test ran across an hour's end) is not this check's.
            ledger.keySet().removeIf(hour -> hour.plus(Duration.ofHours(1)).isAfter(writtenBy));
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
                assertThat(record.get("dimension").asString()).isEqualTo(MeteringRun.DIMENSION);
                receipts.put(row.meteringRecordId(), record.get("receipts").asInt());
            }
        }
        return receipts;
    }

    /**
     * Waits until no record is left to send (every one settled) and every buyer's hours that ended {@code margin} ago
     * are written (the assertions say whether others are too).
     */
    void awaitSettled(List<Buyer> buyers, Duration margin, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Instant writtenBy = Instant.now().minus(margin);
            boolean written = buyers.stream().allMatch(b -> ledger(b).keySet().containsAll(b.expectedHours(writtenBy).keySet()));
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
