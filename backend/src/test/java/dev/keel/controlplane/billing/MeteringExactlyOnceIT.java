package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
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
 * database. Seven buyers of four or five ended hours each make more records than one BatchMeterUsage call takes.
 */
class MeteringExactlyOnceIT {

    private static final int BUYERS = 7;
    private static final Duration SETTLE = Duration.ofSeconds(90);

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
            buyers.awaitSettled(subscribed, SETTLE);
            Map<String, Integer> receipts = buyers.assertMeteredExactlyOnce(subscribed, Instant.now());
            assertThat(receipts.values()).as("each record sent once").containsOnly(1);
            assertThat(count("SELECT max(attempts) FROM metering_records")).isEqualTo(1);
        }
    }

    /** Buyers subscribed under a process that kills itself at {@code point} of its first BatchMeterUsage call. */
    private List<MeteredBuyers.Buyer> killedAt(String point) throws InterruptedException {
        try (BackendProcess doomed = start("doomed-" + point, Map.of("KEEL_MARKETPLACE_TEST_FAULTS_KILL_AT", point))) {
            List<MeteredBuyers.Buyer> subscribed = buyers.subscribe(BUYERS);
            assertThat(doomed.awaitExit(Duration.ofSeconds(60))).as("killed at " + point).isTrue();
            assertThat(count("SELECT count(*) FROM metering_records WHERE state = 'SENT'"))
                    .as("one call's records claimed, no answer recorded").isEqualTo(25);
            return subscribed;
        }
    }

    /** Starts a process without faults, waits for the ledger to settle and checks every hour went out once. */
    private Map<String, Integer> meteredBySuccessor(List<MeteredBuyers.Buyer> subscribed, String name) throws Exception {
        try (BackendProcess successor = start(name, Map.of())) {
            buyers.awaitSettled(subscribed, SETTLE);
            return buyers.assertMeteredExactlyOnce(subscribed, Instant.now());
        }
    }

    private BackendProcess start(String name, Map<String, String> faults) {
        Map<String, String> environment = new HashMap<>(WorkerEnvironment.withStepDelay(Duration.ofMillis(100)));
        environment.put("KEEL_DB_URL", database);
        environment.put("KEEL_ISSUER_URI", TestEnvironment.keycloakUrl() + "/realms/byoc");
        environment.put("KEEL_METERING_INTERVAL", "1s");
        environment.put("KEEL_METERING_CLAIM_TIMEOUT", "3s");
        environment.putAll(faults);
        return BackendProcess.start(name + "-" + UUID.randomUUID().toString().substring(0, 6), environment);
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
