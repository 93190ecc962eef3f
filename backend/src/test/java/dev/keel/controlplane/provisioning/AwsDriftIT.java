package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker terminated behind the control plane's back is found as drift within one reconcile
 * period. Without automatic repair the instance stays {@code Degraded}, naming the broker, until a
 * user asks for a repair; with it (the default) the reconciler repairs at once and its operation
 * names what drifted. Either way the broker count comes back and the condition clears.
 */
class AwsDriftIT {

    private static final Duration RECONCILE_PERIOD = Duration.ofSeconds(2);
    // A few reconcile periods on a quiet machine; generous because a shared 2-core CI machine can
    // stall a freshly started backend and LocalStack for many seconds.
    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(60);

    @Test
    void aTerminatedBrokerShowsAsDegradedAndIsRepaired() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        environment.put("KEEL_DRIFT_INTERVAL", RECONCILE_PERIOD.toSeconds() + "s");
        environment.put("KEEL_HEALTH_INTERVAL", "1s");
        String instance;
        OnboardedAccount account;
        long brokers;

        environment.put("KEEL_DRIFT_AUTO_REPAIR", "false");
        try (BackendProcess backend = BackendProcess.start("drift-" + Fixtures.unique("w"), environment)
                .withPlayedAgents()) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
            instance = created.get("instanceId").asString();
            assertThat(OnboardedAccount.finished(api, created.get("id").asString()).get("state").asString()).isEqualTo("SUCCEEDED");
            brokers = account.customer.runningBrokers(instance);

            String terminated = account.customer.terminateOneBroker(instance);

            JsonNode degraded = api.await("/instances/" + instance,
                    i -> condition(i, "Degraded").get("status").asString().equals("True"), NOTICED_WITHIN);
            assertThat(condition(degraded, "Degraded").get("message").asString()).contains(terminated).contains("is missing");
            String repair = api.post("/instances/" + instance + "/repair", null).json().get("id").asString();
            assertThat(OnboardedAccount.finished(api, repair).get("state").asString()).isEqualTo("SUCCEEDED");
            assertRepaired(api.get("/instances/" + instance).json(), account, instance, brokers);
        }

        environment.put("KEEL_DRIFT_AUTO_REPAIR", "true");
        try (BackendProcess backend = BackendProcess.start("drift-" + Fixtures.unique("w"), environment)
                .withPlayedAgents()) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            String terminated = account.customer.terminateOneBroker(instance);

            JsonNode repair = api.await("/instances/" + instance + "/operations",
                    page -> page.get("items").get(0).get("requestedBy").asString().equals("keel-reconciler"),
                    NOTICED_WITHIN).get("items").get(0);
            assertThat(repair.get("type").asString()).isEqualTo("REPAIR");
            assertThat(repair.get("reason").asString()).contains(terminated).contains("is missing");
            assertThat(OnboardedAccount.finished(api, repair.get("id").asString()).get("state").asString()).isEqualTo("SUCCEEDED");
            assertRepaired(api.get("/instances/" + instance).json(), account, instance, brokers);
            JsonNode audited = api.get("/audit-events?resourceType=instance&resourceId=" + instance).json()
                    .get("items").get(0);
            assertThat(audited.get("action").asString()).isEqualTo("instance.repair");
            assertThat(audited.get("actor").get("username").asString()).as("the reconciler repaired on its own")
                    .isEqualTo("keel-reconciler");
            assertThat(audited.get("after").get("operationId").asString()).isEqualTo(repair.get("id").asString());
            assertThat(audited.get("after").get("reason").asString()).contains(terminated);

            String deletion = api.delete("/instances/" + instance).json().get("id").asString();
            assertThat(OnboardedAccount.finished(api, deletion).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(account.customer.leftoversBesideKeptData(instance)).isEmpty();
        }
    }

    private static void assertRepaired(JsonNode instance, OnboardedAccount account, String id, long brokers) {
        assertThat(account.customer.runningBrokers(id)).isEqualTo(brokers);
        assertThat(condition(instance, "Ready").get("status").asString()).isEqualTo("True");
        assertThat(condition(instance, "Degraded").get("status").asString()).isNotEqualTo("True");
    }

    private static JsonNode condition(JsonNode instance, String type) {
        for (JsonNode condition : instance.get("conditions")) {
            if (condition.get("type").asString().equals(type)) {
                return condition;
            }
        }
        return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("status", "absent");
    }
}
