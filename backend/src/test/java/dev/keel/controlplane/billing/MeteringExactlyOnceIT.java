package dev.keel.controlplane.billing;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.controlplane.support.WorkerEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every hour metered exactly once, checked against what the AWS API emulator received: with the backend process
 * killed ({@code kill -9}) at each point of a metering run and a new one started, and with two processes on one
 * database, also when their clocks are minutes apart (only the database's clock says when an hour is written). Seven
 * buyers of four or five ended hours each make more records than one BatchMeterUsage call takes. And an hour is
 * written only once the agreement events up to its end are applied.
 */
class MeteringExactlyOnceIT {

    private static final int BUYERS = 7;
    private static final Duration SETTLE = Duration.ofSeconds(90);
    /** How long after its end an hour is written, in these processes unless a test says otherwise. */
    private static final Duration MARGIN = Duration.ofMinutes(1);

    private String database;
    private MeteredBuyers buyers;

    @BeforeEach
    void freshDatabase() {
        database = Database.fresh();
        buyers = new MeteredBuyers(database);
    }

    @AfterEach
    void dropDatabase() {
        Database.drop(database);
    }

    @Test
    void aProcessKilledBeforeTheLedgerWriteCommitsLeavesTheHoursToTheNext() throws Exception {
        List<MeteredBuyers.Buyer> subscribed;
        try (BackendProcess doomed = start("doomed-write", Map.of())) {
            // The run's first insert waits in the database, its transaction open, until the process is killed.
            buyers.jdbc().sql("""
                    CREATE FUNCTION hold_metering_write() RETURNS trigger LANGUAGE plpgsql AS
                    $$ BEGIN PERFORM pg_sleep(15); RETURN NEW; END $$
                    """).update();
            buyers.jdbc().sql("""
                    CREATE TRIGGER hold_metering_write BEFORE INSERT ON metering_records
                    FOR EACH ROW EXECUTE FUNCTION hold_metering_write()
                    """).update();
            subscribed = buyers.subscribe(BUYERS);
            awaitQuery("INSERT INTO metering_records");
            doomed.kill();
            awaitNoQuery("INSERT INTO metering_records");
            buyers.jdbc().sql("DROP TRIGGER hold_metering_write ON metering_records").update();
            assertThat(count("SELECT count(*) FROM metering_records")).as("nothing written").isZero();
        }
        Map<String, Integer> receipts = meteredBySuccessor(subscribed, "successor-write");
        assertThat(receipts.values()).as("each record sent once").containsOnly(1);
    }

    @Test
    void aProcessKilledAfterTheClaimBeforeTheCallLeavesClaimedRecordsThatAreSentOnce() throws Exception {
        List<MeteredBuyers.Buyer> subscribed = killedAt("before-call");
        for (MeteredBuyers.Buyer buyer : subscribed) {
            assertThat(buyers.received(buyer)).as("AWS received nothing").isEmpty();
        }

        Map<String, Integer> receipts = meteredBySuccessor(subscribed, "successor-before-call");
        assertThat(receipts.values()).as("each record sent once").containsOnly(1);
    }

    @Test
    void aProcessKilledAfterTheCallBeforeTheResultIsStoredIsAnsweredTheSameRecordsAgain() throws Exception {
        List<MeteredBuyers.Buyer> subscribed = killedAt("after-call");
        int receivedBeforeRestart = 0;
        for (MeteredBuyers.Buyer buyer : subscribed) {
            receivedBeforeRestart += buyers.received(buyer).size();
        }
        assertThat(receivedBeforeRestart).as("AWS has the first call's records").isEqualTo(25);

        Map<String, Integer> receipts = meteredBySuccessor(subscribed, "successor-after-call");
        Map<Integer, Integer> byReceipts = new HashMap<>();
        receipts.values().forEach(n -> byReceipts.merge(n, 1, Integer::sum));
        assertThat(byReceipts).as("the 25 answered records resent identically (AWS kept one each), the rest once")
                .isEqualTo(Map.of(2, 25, 1, receipts.size() - 25));
        assertThat(count("SELECT count(*) FROM metering_records WHERE state = 'DUPLICATE'")).isZero();
    }

    @Test
    void twoProcessesOnOneDatabaseMeterEachHourOnce() throws Exception {
        try (BackendProcess first = start("metering-a", Map.of());
             BackendProcess second = start("metering-b", Map.of())) {
            List<MeteredBuyers.Buyer> subscribed = buyers.subscribe(BUYERS);
            buyers.awaitSettled(subscribed, MARGIN, SETTLE);
            Map<String, Integer> receipts = buyers.assertMeteredExactlyOnce(subscribed, Instant.now().minus(MARGIN));
            assertThat(receipts.values()).as("each record sent once").containsOnly(1);
            assertThat(count("SELECT max(attempts) FROM metering_records")).isEqualTo(1);
        }
    }

    @Test
    void twoProcessesWhoseClocksAreFiveMinutesApartWriteAnHourWhenTheDatabasesClockSays() throws Exception {
        // A margin that makes the last hour due four minutes from now, by the database's clock.
        Instant due = now().plus(Duration.ofMinutes(4));
        Instant held = due.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
        Duration margin = Duration.between(held.plus(Duration.ofHours(1)), due);
        String dueThen = margin.toMillis() + "ms";
        try (BackendProcess onTime = start("clock-on-time", Map.of("KEEL_METERING_MARGIN", dueThen));
             BackendProcess ahead = start("clock-ahead", Map.of("KEEL_METERING_MARGIN", dueThen,
                     "KEEL_TEST_FAULTS_CLOCK_OFFSET", "5m"))) {
            Instant linked = held.minus(Duration.ofMinutes(150));
            List<MeteredBuyers.Buyer> subscribed = buyers.subscribe(BUYERS, linked, linked.plus(Duration.ofMinutes(40)));

            // The hours before are metered at once; the held one not before it is due, though the clock of the process
            // ahead says it is.
            buyers.awaitSettled(subscribed, Duration.between(held, now()), SETTLE);
            assertThat(now()).as("the processes started in time to watch the hour wait")
                    .isBefore(due.minus(Duration.ofSeconds(30)));
            while (now().isBefore(due.minus(Duration.ofSeconds(2)))) {
                for (MeteredBuyers.Buyer buyer : subscribed) {
                    assertThat(buyers.ledger(buyer)).as("written before it is due").doesNotContainKey(held);
                }
                Thread.sleep(1000);
            }
            while (now().isBefore(due)) {
                Thread.sleep(250);
            }

            buyers.awaitSettled(subscribed, margin, SETTLE);
            Map<String, Integer> receipts = buyers.assertMeteredExactlyOnce(subscribed, now().minus(margin));
            assertThat(receipts.values()).as("each record sent once").containsOnly(1);
            for (MeteredBuyers.Buyer buyer : subscribed) {
                assertThat(buyers.ledger(buyer)).containsKey(held);
            }
        }
    }

    @Test
    void anHourIsWrittenOnceTheAgreementEventsUpToItsEndAreAppliedSoALateEndIsBilledUpToTheEnd() throws Exception {
        try (BackendProcess process = start("late-end", Map.of("KEEL_MARKETPLACE_QUEUE_URL",
                TestEnvironment.require("KEEL_MARKETPLACE_QUEUE_URL") + "-never-read"))) {
            Instant last = now().minus(MARGIN).truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(1));
            // The queue was last read to its end half-way through the last hour, and this process never reads it.
            drainedAt(last.plus(Duration.ofMinutes(30)));
            Instant linked = last.minus(Duration.ofMinutes(90));
            MeteredBuyers.Buyer buyer = buyers.subscribe(1, linked, linked.plus(Duration.ofMinutes(20))).getFirst();

            buyers.awaitSettled(List.of(buyer), Duration.between(last, now()), SETTLE);
            Thread.sleep(3000); // several more runs
            assertThat(buyers.ledger(buyer)).as("the last hour waits for the events up to its end")
                    .doesNotContainKey(last);

            // The agreement ended 20 minutes into the hour; the event comes late, and the queue is read after it.
            MeteredBuyers.Buyer ended = buyers.end(buyer, last.plus(Duration.ofMinutes(20)));
            drainedAt(now());

            buyers.awaitSettled(List.of(ended), MARGIN, SETTLE);
            buyers.assertMeteredExactlyOnce(List.of(ended), now().minus(MARGIN));
            assertThat(buyers.ledger(ended).get(last).quantity()).as("6 AKU up to the end").isEqualTo(120);
        }
    }

    /**
     * Buyers subscribed under a process that kills itself at {@code point} of its first BatchMeterUsage call, sending
     * with one sender so that call is the first of all it claimed.
     */
    private List<MeteredBuyers.Buyer> killedAt(String point) throws InterruptedException {
        try (BackendProcess doomed = start("doomed-" + point, Map.of("KEEL_MARKETPLACE_TEST_FAULTS_KILL_AT", point,
                "KEEL_METERING_SENDERS", "1"))) {
            List<MeteredBuyers.Buyer> subscribed = buyers.subscribe(BUYERS);
            assertThat(doomed.awaitExit(Duration.ofSeconds(60))).as("killed at " + point).isTrue();
            assertThat(count("SELECT count(*) FROM metering_records WHERE state = 'SENT'"))
                    .as("every record claimed at once, more than one call takes, no answer recorded")
                    .isEqualTo(count("SELECT count(*) FROM metering_records")).isGreaterThan(25);
            return subscribed;
        }
    }

    /** Starts a process without faults, waits for the ledger to settle and checks every hour went out once. */
    private Map<String, Integer> meteredBySuccessor(List<MeteredBuyers.Buyer> subscribed, String name) throws Exception {
        try (BackendProcess successor = start(name, Map.of())) {
            buyers.awaitSettled(subscribed, MARGIN, SETTLE);
            return buyers.assertMeteredExactlyOnce(subscribed, Instant.now().minus(MARGIN));
        }
    }

    private BackendProcess start(String name, Map<String, String> settings) {
        Map<String, String> environment = new HashMap<>(WorkerEnvironment.withStepDelay(Duration.ofMillis(100)));
        environment.put("KEEL_DB_URL", database);
        environment.put("KEEL_ISSUER_URI", TestEnvironment.keycloakUrl() + "/realms/byoc");
        environment.put("KEEL_METERING_INTERVAL", "1s");
        environment.put("KEEL_METERING_CLAIM_TIMEOUT", "3s");
        environment.put("KEEL_METERING_MARGIN", MARGIN.toSeconds() + "s");
        environment.putAll(settings);
        return BackendProcess.start(name + "-" + UUID.randomUUID().toString().substring(0, 6), environment);
    }

    /** The database's time. */
    private Instant now() {
        return buyers.jdbc().sql("SELECT statement_timestamp()").query(Timestamp.class).single().toInstant();
    }

    private void drainedAt(Instant at) {
        buyers.jdbc().sql("UPDATE marketplace_agreement_queue SET drained_at = ?").param(Timestamp.from(at)).update();
    }

    private int count(String sql) {
        return buyers.jdbc().sql(sql).query(Integer.class).single();
    }

    private void awaitQuery(String running) throws InterruptedException {
        awaitActivity(running, true);
    }

    private void awaitNoQuery(String running) throws InterruptedException {
        awaitActivity(running, false);
    }

    private void awaitActivity(String running, boolean present) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            int found = count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active'"
                    + " AND query LIKE '%" + running + "%' AND pid <> pg_backend_pid()");
            if ((found > 0) == present) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("'" + running + "' was " + (present ? "never" : "still") + " running in the database");
    }
}
