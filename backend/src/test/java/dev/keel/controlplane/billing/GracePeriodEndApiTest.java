package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.TestEnvironment;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * At the end of an ended subscription's grace period each instance of the organization is deleted the way a delete
 * without purge deletes it, once, and its data is kept; an organization in grace or subscribed again keeps them. The
 * tests' subscriptions are globex's and ended in the past, so nothing waits for time to pass.
 */
class GracePeriodEndApiTest extends ApiTest {

    private static final JdbcClient JDBC = JdbcClient.create(Database.dataSource(TestEnvironment.databaseUrl()));

    @Autowired
    private GracePeriodEnd graceEnd;

    @Value("${keel.marketplace.grace-period}")
    private Duration gracePeriod;

    private UUID globex;

    @BeforeEach
    void organization() {
        api(OTHER_ORG_ADMIN).get("/organizations/me");
        globex = JDBC.sql("SELECT id FROM organizations WHERE slug = 'globex'").query(UUID.class).single();
    }

    @AfterEach
    void noSubscriptionLeft() {
        Database.withoutSubscriptions("globex");
    }

    @Test
    void afterTheGraceEachInstanceIsDeletedOnceWithItsDataKept() {
        ApiClient api = api(OTHER_ORG_ADMIN);
        String accountId = registerAccount(api).get("id").asString();
        UUID plain = instanceId(createRunningInstance(api, instanceBody(accountId, "S3", 3, 3)));
        Map<String, Object> protectedBody = new HashMap<>(instanceBody(accountId, "S3", 3, 3));
        protectedBody.put("deletionProtection", true);
        UUID protectedOne = instanceId(createRunningInstance(api, protectedBody));
        UUID subscription = ended(Duration.ofHours(1).plus(gracePeriod));

        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> graceEnd.deleteUnpaidBy(Instant.now()));
        CompletableFuture<Void> second = CompletableFuture.runAsync(() -> graceEnd.deleteUnpaidBy(Instant.now()));
        CompletableFuture.allOf(first, second).join();

        for (UUID id : List.of(plain, protectedOne)) {
            List<Map<String, Object>> deletes = deletes(id);
            assertThat(deletes).as("one delete of %s though two runs raced", id).hasSize(1);
            assertThat(deletes.get(0).get("requested_by")).isEqualTo(GracePeriodEnd.ACTOR);
            assertThat((String) deletes.get(0).get("reason")).contains(subscription.toString());
            awaitOperation(api, deletes.get(0).get("id").toString(), "SUCCEEDED");

            JsonNode deleted = api.get("/instances/" + id).json();
            assertThat(deleted.get("state").asString()).isEqualTo("DELETED");
            assertThat(Instant.parse(deleted.get("dataRetainedUntil").asString())).as("its data is kept")
                    .isAfter(Instant.now().plus(Duration.ofDays(1)));

            JsonNode audited = api.get("/audit-events?resourceType=instance&resourceId=" + id).json().get("items").get(0);
            assertThat(audited.get("action").asString()).isEqualTo("instance.delete");
            assertThat(audited.toString()).contains("system:" + GracePeriodEnd.ACTOR);
            assertThat(audited.get("after").get("reason").asString()).contains(subscription.toString());
        }

        graceEnd.deleteUnpaidBy(Instant.now());
        assertThat(deletes(plain)).as("a later run queues nothing new").hasSize(1);
        assertThat(deletes(protectedOne)).hasSize(1);

        // As a delete that failed leaves it: the instance shows the failure and is not deleted again and again.
        JDBC.sql("UPDATE instances SET state = 'FAILED', deleted_at = NULL WHERE id = ?").param(plain).update();
        graceEnd.deleteUnpaidBy(Instant.now());
        assertThat(deletes(plain)).as("a failed delete is not queued again").hasSize(1);
    }

    @Test
    void anOrganizationInGraceOrSubscribedAgainKeepsItsInstances() {
        ApiClient api = api(OTHER_ORG_ADMIN);
        String accountId = registerAccount(api).get("id").asString();
        UUID id = instanceId(createRunningInstance(api, instanceBody(accountId, "S3", 3, 3)));

        ended(gracePeriod.minus(Duration.ofHours(1)));
        graceEnd.deleteUnpaidBy(Instant.now());
        assertThat(deletes(id)).as("still in grace").isEmpty();

        Database.withoutSubscriptions("globex");
        ended(gracePeriod.plus(Duration.ofDays(1)));
        subscription("PENDING", null);
        graceEnd.deleteUnpaidBy(Instant.now());
        assertThat(deletes(id)).as("linked again before the grace ended").isEmpty();
        assertThat(api.get("/instances/" + id).json().get("state").asString()).isEqualTo("RUNNING");
    }

    private static UUID instanceId(JsonNode instance) {
        return UUID.fromString(instance.get("id").asString());
    }

    /** A subscription of globex that ended {@code ago}. */
    private UUID ended(Duration ago) {
        return subscription("ENDED", Instant.now().minus(ago));
    }

    private UUID subscription(String state, Instant endedAt) {
        UUID id = UUID.randomUUID();
        JDBC.sql("""
                        INSERT INTO marketplace_subscriptions (id, organization_id, product_code, customer_aws_account_id,
                                                               license_arn, state, state_event_at, ended_at)
                        VALUES (?, ?, 'keel-local-development', '123456789012', ?, ?, coalesce(?::timestamptz, now()), ?::timestamptz)
                        """)
                .params(id, globex, "arn:aws:license-manager::294406891311:license:l-" + UUID.randomUUID(), state,
                        endedAt == null ? null : java.sql.Timestamp.from(endedAt),
                        endedAt == null ? null : java.sql.Timestamp.from(endedAt))
                .update();
        return id;
    }

    private static List<Map<String, Object>> deletes(UUID instanceId) {
        return JDBC.sql("SELECT id, requested_by, reason FROM operations WHERE instance_id = ? AND type = 'DELETE'")
                .param(instanceId).query().listOfRows();
    }
}
