package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import dev.keel.controlplane.support.PlayedAgents;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Keel's side of the ingest path breaks under every agent of several running instances: the control plane restarts
 * with a rotated ingest secret the agents have not seen, so it refuses all their reports. For ten minutes (checked
 * every few seconds by the drift reconciler) no broker is terminated; each instance says {@code AgentsSilent}; the
 * fleet-wide brake opens, and even a machine terminated behind Keel's back meanwhile is not repaired automatically.
 * Once the agents report again the brake closes by itself and that machine alone is replaced, while the others serve
 * on. {@code -Dkeel.test.silence=PT1M} shortens the silence when iterating. Its ten minutes are mostly waiting, on a
 * database, a backend and an account of its own: it runs beside the other integration tests.
 */
@Execution(ExecutionMode.CONCURRENT)
class SilentAgentsIT {

    private static final Duration SILENCE = Duration.parse(System.getProperty("keel.test.silence", "PT10M"));
    private static final int INSTANCES = 3;
    private static final String ROTATED = "rotated-ingest-secret-the-agents-never-saw-0123";
    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(60);

    @Test
    void silenceAloneTerminatesNothingAndTheBrakeHoldsRepairUntilReportsReturn() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        String database = environment.get("KEEL_DB_URL");
        environment.put("KEEL_DRIFT_INTERVAL", "2s");
        environment.put("KEEL_HEALTH_INTERVAL", "1s");
        environment.put("KEEL_HEALTH_STALE_AFTER", "5s");
        environment.put("KEEL_REPAIR_BRAKE_REFRESH", "1s");
        String secret = "silent-agents-test-ingest-secret-0123456789";
        environment.put("KEEL_INGEST_SECRET", secret);
        List<String> instances = new ArrayList<>();
        Map<String, Set<String>> machines = new HashMap<>();
        OnboardedAccount account;

        BackendProcess backend = BackendProcess.start("silent-" + Fixtures.unique("a"), environment);
        try (PlayedAgents agents = new PlayedAgents(backend, database, secret)) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            account = new OnboardedAccount(api);
            for (int i = 0; i < INSTANCES; i++) {
                JsonNode created = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
                assertThat(OnboardedAccount.finished(api, created.get("id").asString()).get("state").asString())
                        .isEqualTo("SUCCEEDED");
                String instance = created.get("instanceId").asString();
                instances.add(instance);
                machines.put(instance, account.customer.brokerMachines(instance));
            }
            for (String instance : instances) {
                api.await("/instances/" + instance, i -> condition(i, "AgentsSilent").equals("False"), NOTICED_WITHIN);
            }
            assertThat(backend.metric("keel_repair_circuit_open")).isZero();

            // Keel rotates its ingest secret without the agents: every report is refused from now on.
            backend.close();
            environment.put("KEEL_INGEST_SECRET", ROTATED);
            backend = BackendProcess.start("silent-" + Fixtures.unique("b"), environment);
            agents.reportTo(backend);
            ApiClient rotated = backend.api(Fixtures.EDITOR);
            for (String instance : instances) {
                JsonNode silent = rotated.await("/instances/" + instance,
                        i -> condition(i, "AgentsSilent").equals("True"), NOTICED_WITHIN);
                assertThat(message(silent, "AgentsSilent")).contains("not reported since", "never for its agent's silence");
            }
            BackendProcess current = backend;
            await("the brake to open").atMost(NOTICED_WITHIN).until(() -> current.metric("keel_repair_circuit_open") == 1);
            assertThat(backend.metric("keel_agents_silent")).isEqualTo(3.0 * INSTANCES);
            assertThat(backend.metric("keel_ingest_reports_total", "outcome=\"unauthorized\"")).isPositive();

            // Meanwhile EC2 terminates one machine: evidence, but the brake holds the repair back.
            String victim = instances.getFirst();
            String terminated = account.customer.terminateOneBroker(victim);
            long end = System.nanoTime() + SILENCE.toNanos();
            while (System.nanoTime() < end) {
                for (String instance : instances) {
                    Set<String> running = account.customer.brokerMachines(instance);
                    if (instance.equals(victim)) {
                        assertThat(machines.get(instance)).as("nothing launched while the brake is open")
                                .containsAll(running).hasSize(running.size() + 1);
                    } else {
                        assertThat(running).as("no broker of %s terminated", instance).isEqualTo(machines.get(instance));
                    }
                }
                assertThat(backend.metric("keel_repair_circuit_open")).as("the brake stays open").isEqualTo(1);
                Thread.sleep(5_000);
            }
            assertThat(message(rotated.get("/instances/" + victim).json(), "Degraded"))
                    .contains(terminated, "Automatic repair is suspended");

            // The agents learn the new secret: reports return, the brake closes, the one lost machine is replaced.
            agents.secret(ROTATED);
            await("the brake to close").atMost(NOTICED_WITHIN).until(() -> current.metric("keel_repair_circuit_open") == 0);
            JsonNode repair = rotated.await("/instances/" + victim + "/operations",
                    page -> page.at("/items/0/type").asString().equals("REPAIR"), NOTICED_WITHIN).at("/items/0");
            assertThat(repair.get("requestedBy").asString()).isEqualTo("keel-reconciler");
            assertThat(OnboardedAccount.finished(rotated, repair.get("id").asString()).get("state").asString())
                    .isEqualTo("SUCCEEDED");
            Set<String> after = account.customer.brokerMachines(victim);
            Set<String> kept = new java.util.HashSet<>(machines.get(victim));
            kept.retainAll(after);
            assertThat(kept).as("the brokers that served were left alone").hasSize(machines.get(victim).size() - 1);
            assertThat(after).as("one new machine took the lost one's place").hasSize(machines.get(victim).size());
            for (String instance : instances.subList(1, INSTANCES)) {
                assertThat(account.customer.brokerMachines(instance)).isEqualTo(machines.get(instance));
            }
        } finally {
            backend.close();
        }
    }

    private static String condition(JsonNode instance, String type) {
        for (JsonNode condition : instance.get("conditions")) {
            if (condition.get("type").asString().equals(type)) {
                return condition.get("status").asString();
            }
        }
        return "absent";
    }

    private static String message(JsonNode instance, String type) {
        for (JsonNode condition : instance.get("conditions")) {
            if (condition.get("type").asString().equals(type)) {
                return condition.get("message").asString();
            }
        }
        return "";
    }
}
