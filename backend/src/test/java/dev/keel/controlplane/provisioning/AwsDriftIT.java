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

/** A broker terminated behind the control plane's back is reported as drift and repaired. */
class AwsDriftIT {

    @Test
    void aTerminatedBrokerShowsAsDegradedAndIsRepaired() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        environment.put("KEEL_DRIFT_INTERVAL", "2s");
        environment.put("KEEL_HEALTH_INTERVAL", "1s");
        try (BackendProcess backend = BackendProcess.start("drift-" + Fixtures.unique("w"), environment)) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
            String instance = created.get("instanceId").asString();
            assertThat(OnboardedAccount.finished(api, created.get("id").asString()).get("state").asString()).isEqualTo("SUCCEEDED");
            long brokers = account.customer.runningBrokers(instance);

            String terminated = account.customer.terminateOneBroker(instance);

            JsonNode degraded = api.await("/instances/" + instance,
                    i -> degraded(i).get("status").asString().equals("True"), Duration.ofSeconds(30));
            assertThat(degraded(degraded).get("message").asString()).contains(terminated).contains("missing");
            JsonNode repair = api.await("/instances/" + instance + "/operations",
                    page -> page.get("items").get(0).get("type").asString().equals("REPAIR"), Duration.ofSeconds(30))
                    .get("items").get(0);
            assertThat(repair.get("requestedBy").asString()).isEqualTo("keel-reconciler");
            assertThat(OnboardedAccount.finished(api, repair.get("id").asString()).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(account.customer.runningBrokers(instance)).isEqualTo(brokers);
            api.await("/instances/" + instance, i -> !degraded(i).get("status").asString().equals("True"), Duration.ofSeconds(30));

            String deletion = api.delete("/instances/" + instance).json().get("id").asString();
            assertThat(OnboardedAccount.finished(api, deletion).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(account.customer.leftovers(instance)).isEmpty();
        }
    }

    private static JsonNode degraded(JsonNode instance) {
        for (JsonNode condition : instance.get("conditions")) {
            if (condition.get("type").asString().equals("Degraded")) {
                return condition;
            }
        }
        return tools.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("status", "absent");
    }
}
