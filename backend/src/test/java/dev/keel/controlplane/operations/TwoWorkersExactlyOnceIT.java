package dev.keel.controlplane.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Database.StepRun;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.WorkerEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** Two backend processes share one database; every operation runs once, each step once. */
class TwoWorkersExactlyOnceIT {

    private static final int OPERATIONS = 12;

    @Test
    void eachOperationRunsExactlyOnceAcrossTwoProcesses() throws Exception {
        Map<String, String> environment = WorkerEnvironment.withStepDelay(Duration.ofMillis(150));
        try (BackendProcess a = BackendProcess.start("worker-a-" + UUID.randomUUID().toString().substring(0, 6), environment);
             BackendProcess b = BackendProcess.start("worker-b-" + UUID.randomUUID().toString().substring(0, 6), environment)) {
            ApiClient api = a.api(Fixtures.EDITOR);
            String accountId = Fixtures.registerAccount(api).get("id").asString();
            List<String> operations = new ArrayList<>();
            for (int i = 0; i < OPERATIONS; i++) {
                ApiClient.Response created = (i % 2 == 0 ? api : b.api(Fixtures.EDITOR))
                        .post("/instances", Fixtures.instanceBody(accountId, "S3", 1, 3));
                assertThat(created.status()).as(created.toString()).isEqualTo(202);
                operations.add(created.json().get("id").asString());
            }

            Set<String> workers = new HashSet<>();
            for (String operation : operations) {
                api.await("/operations/" + operation, op -> op.get("state").asString().equals("SUCCEEDED"), Duration.ofSeconds(60));
                List<StepRun> steps = Database.steps(UUID.fromString(operation));
                assertThat(steps).isNotEmpty().allSatisfy(step -> {
                    assertThat(step.state()).isEqualTo("SUCCEEDED");
                    assertThat(step.attempts()).as("%s of %s", step.name(), operation).isEqualTo(1);
                });
                assertThat(steps.stream().map(StepRun::worker).distinct()).as("one worker ran " + operation).hasSize(1);
                workers.add(steps.getFirst().worker());
            }
            assertThat(workers).as("both processes took operations").containsExactlyInAnyOrder(a.workerId(), b.workerId());
        }
    }
}
