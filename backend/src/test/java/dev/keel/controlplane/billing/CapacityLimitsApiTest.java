package dev.keel.controlplane.billing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import dev.keel.provisioner.ProvisioningDriver;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Capacity an organization may not run is refused before any cloud call and before an operation is queued, on create,
 * scale and both plans; the guardrails' API. The tests' organization has no subscription and a trial the test stack
 * makes too large to matter, so each test sets up the limit it is about and takes it away after.
 */
class CapacityLimitsApiTest extends ApiTest {

    private static final DataSource DATABASE = Database.dataSource(TestEnvironment.databaseUrl());
    private static final JdbcClient JDBC = JdbcClient.create(DATABASE);
    /** Capacity periods this test writes into the past, before any other test's. */
    private static final String LONG_AGO = "1990-01-01T00:00:00Z";

    @Autowired
    private ProvisioningDriver driver;

    private UUID acme;

    @BeforeEach
    void organization() {
        api(ADMIN).get("/organizations/me");
        acme = JDBC.sql("SELECT id FROM organizations WHERE slug = 'acme'").query(UUID.class).single();
    }

    @AfterEach
    void noLimitsLeft() {
        assertThat(api(ADMIN).send("PUT", "/billing/budget", Map.of()).status()).isEqualTo(200);
        Database.withoutSubscriptions("acme");
        JDBC.sql("DELETE FROM capacity_periods WHERE started_at <= ?::timestamptz").param(LONG_AGO).update();
    }

    @Test
    void everyMemberReadsTheBudgetAndOnlyAdminsSetIt() {
        JsonNode none = api(VIEWER).get("/billing/budget").json();
        assertThat(none.get("monthlyAkuHours").isNull()).isTrue();
        assertThat(none.get("budgetUsedFraction").isNull()).isTrue();
        assertThat(none.get("month").get("akuHoursUsed").asDouble()).isNotNegative();
        assertThat(none.get("trial").get("akuHours").asLong()).as("the test stack's trial").isEqualTo(1_000_000_000L);

        ApiClient.Response byEditor = api(EDITOR).send("PUT", "/billing/budget", Map.of("maxAkuPerInstance", 6));
        assertThat(byEditor.status()).isEqualTo(403);
        assertThat(byEditor.json().get("type").asString()).endsWith("/forbidden");

        long audited = budgetEvents();
        Map<String, Object> budget = Map.of("monthlyAkuHours", 90_000_000, "maxAkuPerInstance", 12,
                "maxAkuPerOrganization", 99_000);
        ApiClient.Response set = api(ADMIN).header("Idempotency-Key", UUID.randomUUID().toString())
                .send("PUT", "/billing/budget", budget);
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        JsonNode read = api(VIEWER).get("/billing/budget").json();
        assertThat(read.get("maxAkuPerInstance").asInt()).isEqualTo(12);
        assertThat(read.get("maxAkuPerOrganization").asInt()).isEqualTo(99_000);
        assertThat(read.get("budgetUsedFraction").asDouble())
                .isCloseTo(read.get("month").get("akuHoursUsed").asDouble() / 90_000_000, within(1e-4));

        assertThat(api(ADMIN).send("PUT", "/billing/budget", budget).status()).as("the same again").isEqualTo(200);
        assertThat(budgetEvents()).as("audited once: the second changed nothing").isEqualTo(audited + 1);
        JsonNode latest = api(VIEWER).get("/audit-events?resourceType=budget&resourceId=" + acme).json().get("items").get(0);
        assertThat(latest.get("action").asString()).isEqualTo("budget.update");
        assertThat(latest.get("after").get("maxAkuPerInstance").asInt()).isEqualTo(12);
    }

    @Test
    void aBudgetOutOfRangeIsRefusedFieldByField() {
        ApiClient admin = api(ADMIN);
        ApiClient.Response invalid = admin.send("PUT", "/billing/budget",
                Map.of("monthlyAkuHours", 0, "maxAkuPerInstance", 12, "maxAkuPerOrganization", 6));
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(fields(invalid)).containsExactly("monthlyAkuHours", "maxAkuPerOrganization");
        assertThat(admin.send("PUT", "/billing/budget", Map.of("maxAkuPerInstance", 3.5)).status()).isEqualTo(400);
        assertThat(admin.send("PUT", "/billing/budget", Map.of("maxAku", 3)).status()).as("unknown").isEqualTo(400);
        assertThat(admin.send("PUT", "/billing/budget", "{\"maxAkuPerInstance\": null}").status()).isEqualTo(400);
        assertThat(admin.get("/billing/budget").json().get("maxAkuPerInstance").isNull()).as("nothing was set").isTrue();
    }

    @Test
    void aRefusedCreateScaleOrPlanCallsNoCloudAndQueuesNothing() {
        ApiClient api = api(EDITOR);
        JsonNode account = registerAccount(api);
        String id = createRunningInstance(api, instanceBody(account.get("id").asString(), "S3", 3, 3)).get("id").asString();
        setBudget(Map.of("maxAkuPerInstance", 3));
        assertRefusedBeforeTheCloud(api, account, id, 6, 6, "budget-exceeded", "at most 3 AKU per instance",
                "6 AKU were asked");
    }

    @Test
    void anEndingSubscriptionAllowsNoGrowthButAScaleDown() {
        ApiClient api = api(EDITOR);
        JsonNode account = registerAccount(api);
        String id = createRunningInstance(api, instanceBody(account.get("id").asString(), "S3", 3, 6)).get("id").asString();
        subscribe("CANCELLING", null);
        assertRefusedBeforeTheCloud(api, account, id, 3, 9, "subscription-ended", "is CANCELLING", "AKU asked");

        ApiClient.Response down = api.header("If-Match", "\"1\"").patch("/instances/" + id, Map.of("aku", 3));
        assertThat(down.status()).as(down.toString()).isEqualTo(202);
        awaitOperation(api, down.json().get("id").asString(), "SUCCEEDED");
    }

    @Test
    void theEntitlementCapsTheOrganizationsTotalCountingTheChangeAsked() {
        ApiClient api = api(EDITOR);
        JsonNode account = registerAccount(api);
        String accountId = account.get("id").asString();
        String id = createRunningInstance(api, instanceBody(accountId, "S3", 3, 3)).get("id").asString();
        int entitled = organizationAku() + 3;
        subscribe("ACTIVE", entitled);
        assertRefusedBeforeTheCloud(api, account, id, 6, 9, "entitlement-exceeded", "allows " + entitled + " AKU",
                "AKU were asked");
        assertThat(api.post("/instances/plan", instanceBody(accountId, "S3", 3, 3)).status()).as("fits exactly")
                .isEqualTo(200);

        ApiClient.Response within = api.header("If-Match", "\"1\"").patch("/instances/" + id, Map.of("aku", 6));
        assertThat(within.status()).as(within.toString()).isEqualTo(202);
        awaitOperation(api, within.json().get("id").asString(), "SUCCEEDED");

        JDBC.sql("UPDATE marketplace_subscriptions SET entitled_aku = NULL WHERE organization_id = ?").param(acme).update();
        assertThat(api.post("/instances/plan", instanceBody(accountId, "S3", 3, 60)).status())
                .as("pay-as-you-go: no limit").isEqualTo(200);
    }

    @Test
    void theTrialEndsWhenItsAkuHoursAreUsedUpAndASubscriptionReplacesIt() {
        ApiClient api = api(EDITOR);
        JsonNode account = registerAccount(api);
        String accountId = account.get("id").asString();
        String id = createRunningInstance(api, instanceBody(accountId, "S3", 3, 3)).get("id").asString();
        // 20,000 AKU for ten years, long ago: more than the test stack's trial of 1,000,000,000 AKU-hours.
        JDBC.sql("""
                        INSERT INTO capacity_periods (instance_id, organization_id, aku, started_at, ended_at)
                        VALUES (?, ?, 20000, '1980-01-01T00:00:00Z', ?::timestamptz)
                        """)
                .params(UUID.fromString(id), acme, LONG_AGO).update();
        JsonNode trial = api.get("/billing/budget").json().get("trial");
        assertThat(trial.get("akuHoursUsed").asDouble()).isGreaterThan(trial.get("akuHours").asDouble());

        assertRefusedBeforeTheCloud(api, account, id, 3, 6, "trial-limit-exceeded", "AKU-hours are used up",
                "Subscribe to Keel on AWS Marketplace");

        subscribe("ACTIVE", null);
        assertThat(api.get("/billing/budget").json().get("trial").isNull()).as("subscribed: no trial").isTrue();
        assertThat(api.post("/instances/plan", instanceBody(accountId, "S3", 3, 3)).status()).isEqualTo(200);
    }

    @Test
    void theMonthlyBudgetRefusesWhatTheMonthCannotHold() {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        JsonNode month = api.get("/billing/budget").json().get("month");
        double hoursLeft = Duration.between(java.time.Instant.now(),
                java.time.Instant.parse(month.get("to").asString())).toMillis() / 3_600_000.0;
        // Room for 3 more AKU until the month ends, not for 3 + more: enough more that the whole AKU-hour the budget
        // is rounded up by still cannot hold them, however little of the month is left.
        int more = (int) Math.min(497, Math.max(3, Math.ceil(2.5 / hoursLeft)));
        int budget = (int) Math.ceil(month.get("akuHoursUsed").asDouble()
                + (organizationAku() + 3 + more / 2.0) * hoursLeft);
        setBudget(Map.of("monthlyAkuHours", budget));

        assertThat(api.post("/instances/plan", instanceBody(accountId, "S3", 3, 3)).status()).isEqualTo(200);
        assertRefused(api.post("/instances/plan", instanceBody(accountId, "S3", 3, 3 + more)), "budget-exceeded",
                "monthly budget is " + budget + " AKU-hours", (3 + more) + " AKU were asked");
    }

    @Test
    void twoCreatesRacingForTheLastOfALimitDoNotBothPass() throws Exception {
        ApiClient api = api(EDITOR);
        String accountId = registerAccount(api).get("id").asString();
        setBudget(Map.of("maxAkuPerOrganization", organizationAku() + 3));
        List<CompletableFuture<ApiClient.Response>> creates;
        // Both pass the check ahead of the cloud reads, then wait for the organization's lock, held here.
        try (Connection lock = DATABASE.getConnection()) {
            lock.setAutoCommit(false);
            try (PreparedStatement select = lock.prepareStatement("SELECT id FROM organizations WHERE id = ? FOR UPDATE")) {
                select.setObject(1, acme);
                select.executeQuery().close();
            }
            creates = List.of(
                    CompletableFuture.supplyAsync(() -> api.post("/instances", instanceBody(accountId, "S3", 3, 3))),
                    CompletableFuture.supplyAsync(() -> api.post("/instances", instanceBody(accountId, "S3", 3, 3))));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (waitingForTheOrganization() < 2) {
                assertThat(System.nanoTime()).as("both creates wait for the organization's lock").isLessThan(deadline);
                assertThat(creates).as("no create answers while the lock is held").noneMatch(CompletableFuture::isDone);
                Thread.sleep(50);
            }
            lock.rollback();
        }
        List<ApiClient.Response> answers = creates.stream().map(CompletableFuture::join).toList();
        assertThat(answers).extracting(ApiClient.Response::status).containsExactlyInAnyOrder(202, 409);
        ApiClient.Response refused = answers.stream().filter(a -> a.status() == 409).findFirst().orElseThrow();
        assertRefused(refused, "budget-exceeded", "maxAkuPerOrganization");
        ApiClient.Response accepted = answers.stream().filter(a -> a.status() == 202).findFirst().orElseThrow();
        awaitOperation(api, accepted.json().get("id").asString(), "SUCCEEDED");
    }

    /**
     * A create of {@code createAku}, its plan, a scale of the instance to {@code scaleAku} and its plan are each refused
     * with {@code type}: no call went through the account's role, and no instance or operation was recorded.
     */
    private void assertRefusedBeforeTheCloud(ApiClient api, JsonNode account, String instanceId, int createAku,
                                             int scaleAku, String type, String... detail) {
        int calls = calls(account);
        long instances = count("instances");
        long operations = count("operations");
        Map<String, Object> create = instanceBody(account.get("id").asString(), "S3", 3, createAku);
        assertRefused(api.post("/instances", create), type, detail);
        assertRefused(api.post("/instances/plan", create), type, detail);
        assertRefused(api.header("If-Match", "*").patch("/instances/" + instanceId, Map.of("aku", scaleAku)), type, detail);
        assertRefused(api.post("/instances/" + instanceId + "/plan", Map.of("aku", scaleAku)), type, detail);
        assertThat(calls(account)).as("no call through the customer's role").isEqualTo(calls);
        assertThat(count("instances")).as("no instance recorded").isEqualTo(instances);
        assertThat(count("operations")).as("no operation queued").isEqualTo(operations);
    }

    private static void assertRefused(ApiClient.Response response, String type, String... detail) {
        assertThat(response.status()).as(response.toString()).isEqualTo(409);
        JsonNode problem = response.json();
        assertThat(problem.get("type").asString()).isEqualTo("https://keel.dev/problems/" + type);
        assertThat(problem.get("detail").asString()).contains(detail);
        assertThat(fields(response)).containsExactly("aku");
    }

    private static List<String> fields(ApiClient.Response response) {
        return response.json().get("errors").valueStream().map(e -> e.get("field").asString()).toList();
    }

    private void setBudget(Map<String, Object> budget) {
        ApiClient.Response set = api(ADMIN).send("PUT", "/billing/budget", budget);
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
    }

    /**
     * A subscription whose entitlement was read: one never read would be read again from the emulator, which knows
     * nothing of this licence (pay-as-you-go).
     */
    private void subscribe(String state, Integer entitledAku) {
        JDBC.sql("""
                        INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                               license_arn, state, state_event_at, entitled_aku,
                                                               entitlement_read_at)
                        VALUES (?, ?, 'keel-local-development', '123456789012', ?, ?, now(), ?, now())
                        """)
                .params(UUID.randomUUID(), acme, "arn:aws:license-manager::294406891311:license:l-" + UUID.randomUUID(),
                        state, entitledAku)
                .update();
    }

    /** The AKU of the organization's instances that are not deleted, as other tests left them. */
    private int organizationAku() {
        return JDBC.sql("SELECT coalesce(sum(aku), 0) FROM instances WHERE organization_id = ? AND state <> 'DELETED'")
                .param(acme).query(Integer.class).single();
    }

    private long count(String table) {
        return JDBC.sql("SELECT count(*) FROM " + table + " WHERE organization_id = ?").param(acme)
                .query(Long.class).single();
    }

    private long budgetEvents() {
        return JDBC.sql("SELECT count(*) FROM audit_events WHERE resource_type = 'budget' AND organization_id = ?")
                .param(acme).query(Long.class).single();
    }

    private int calls(JsonNode account) {
        return ((NoCloudProvisioningDriver) driver).callsThrough(account.get("roleArn").asString());
    }

    private static int waitingForTheOrganization() {
        return JDBC.sql("""
                        SELECT count(*) FROM pg_stat_activity
                        WHERE wait_event_type = 'Lock' AND query LIKE 'SELECT id FROM organizations WHERE id = %FOR UPDATE'
                        """)
                .query(Integer.class).single();
    }
}
