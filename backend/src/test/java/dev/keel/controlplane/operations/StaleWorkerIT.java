package dev.keel.controlplane.operations;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Database.StepRun;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import dev.keel.fixtures.CallPause;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A worker frozen ({@code SIGSTOP}) in the middle of the step that launches brokers, just before it would call
 * RunInstances, for longer than its lease: another worker takes the operation over and finishes it. Thawed
 * ({@code SIGCONT}), the stale worker finds it has lost the operation's fence before its call goes out: it launches
 * nothing and writes nothing, and each node has one machine.
 */
class StaleWorkerIT {

    @Test
    void aWorkerThawedAfterAnotherFinishedItsOperationWritesAndLaunchesNothing() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        // Each process tells brokers to report to its own port: a drift the test has no part in.
        environment.put("KEEL_DRIFT_AUTO_REPAIR", "false");
        String database = environment.get("KEEL_DB_URL");
        Map<String, String> frozen = new HashMap<>(environment);
        frozen.put("KEEL_PROVISIONING_AWS_TEST_FAULTS_PAUSE_BEFORE", "RunInstances");
        frozen.put("KEEL_PROVISIONING_AWS_TEST_FAULTS_PAUSE_FOR", "20s");

        String stale = "stale-" + Fixtures.unique("w");
        try (BackendProcess first = BackendProcess.start(stale, frozen).withPlayedAgents()) {
            ApiClient api = first.api(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
            UUID operation = UUID.fromString(created.get("id").asString());
            String instance = created.get("instanceId").asString();
            Path log = Path.of("target", "it-logs", stale + ".log");
            await("the first worker about to launch brokers").atMost(Duration.ofSeconds(90))
                    .until(() -> Files.readString(log).contains(CallPause.MARKER + "RunInstances"));
            first.freeze();

            JsonNode finished;
            try (BackendProcess successor = BackendProcess.start("successor-" + Fixtures.unique("w"), environment)
                    .withPlayedAgents()) {
                finished = OnboardedAccount.finished(successor.api(Fixtures.EDITOR), operation.toString());
                assertThat(finished.get("state").asString()).isEqualTo("SUCCEEDED");
                assertThat(Database.steps(database, operation)).extracting(StepRun::worker)
                        .as("the successor ran the step it took over, and those after it")
                        .endsWith(successor.workerId(), successor.workerId());
            }
            List<StepRun> steps = Database.steps(database, operation);
            String inventory = Database.inventory(database, UUID.fromString(instance));
            assertThat(account.customer.brokerMachinesPerNode(instance)).as("one machine per node")
                    .containsOnlyKeys(0, 1, 2).allSatisfy((node, machines) -> assertThat(machines).hasSize(1));

            first.resume();
            await("the thawed worker to find it lost the operation").atMost(Duration.ofSeconds(60))
                    .until(() -> Files.readString(log).contains("stops without changing anything more"));
            Thread.sleep(5_000);
            assertThat(Database.steps(database, operation)).as("the stale worker wrote nothing").isEqualTo(steps);
            assertThat(Database.inventory(database, UUID.fromString(instance))).isEqualTo(inventory);
            assertThat(api.get("/operations/" + operation).json()).isEqualTo(finished);
            assertThat(account.customer.brokerMachinesPerNode(instance)).as("it launched nothing")
                    .containsOnlyKeys(0, 1, 2).allSatisfy((node, machines) -> assertThat(machines).hasSize(1));
            assertThat(Files.readString(log)).as("its execution left to the run that took it")
                    .doesNotContain("Failed while completing execution");
        }
    }
}
