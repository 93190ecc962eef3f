package dev.keel.controlplane.operations;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Database.StepRun;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.WorkerEnvironment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of the worker in the middle of a step: a new process revives the operation,
 * repeats only the step that was in flight and finishes it, with what the brokers boot as the create recorded it.
 */
class KillAndResumeIT {

    private static final int KILLED_STEP = 2;

    @Test
    void anOperationInterruptedByKillNineIsFinishedByTheNextProcess() throws Exception {
        Map<String, String> environment = WorkerEnvironment.withStepDelay(Duration.ofSeconds(2));
        String operation;
        String instance;
        JsonNode recorded;
        String first = "doomed-" + UUID.randomUUID().toString().substring(0, 6);
        BackendProcess doomed = BackendProcess.start(first, environment);
        try {
            ApiClient api = doomed.api(Fixtures.EDITOR);
            JsonNode created = api.post("/instances", Fixtures.instanceBody(Fixtures.registerAccount(api).get("id").asString(), "S3", 1, 3)).json();
            operation = created.get("id").asString();
            instance = created.get("instanceId").asString();
            recorded = boot(instance);
            assertThat(recorded.get("machineImage").asString()).as("recorded by the create").startsWith("ami-");
            awaitStepRunning(UUID.fromString(operation), KILLED_STEP);
        } finally {
            doomed.kill();
        }
        assertThat(Database.steps(UUID.fromString(operation)).get(KILLED_STEP).state()).isEqualTo("RUNNING");

        try (BackendProcess successor = BackendProcess.start("successor-" + UUID.randomUUID().toString().substring(0, 6), environment)) {
            ApiClient api = successor.api(Fixtures.EDITOR);
            JsonNode done = api.await("/operations/" + operation,
                    op -> op.get("state").asString().equals("SUCCEEDED"), Duration.ofSeconds(90));
            assertThat(done.get("progress").get("completedSteps").asInt()).isEqualTo(done.get("steps").size());

            List<StepRun> steps = Database.steps(UUID.fromString(operation));
            for (StepRun step : steps) {
                if (step.position() < KILLED_STEP) {
                    assertThat(step.attempts()).as(step.name()).isEqualTo(1);
                    assertThat(step.worker()).as(step.name()).isEqualTo(first);
                } else if (step.position() == KILLED_STEP) {
                    assertThat(step.attempts()).as("the interrupted step ran again").isEqualTo(2);
                    assertThat(step.worker()).isEqualTo(successor.workerId());
                } else {
                    assertThat(step.attempts()).as(step.name()).isEqualTo(1);
                    assertThat(step.worker()).isEqualTo(successor.workerId());
                }
            }
            JsonNode resumed = api.get("/instances/" + instance).json();
            assertThat(resumed.get("state").asString()).isEqualTo("RUNNING");
            assertThat(resumed.get("inventory").get("brokers").size()).isEqualTo(resumed.get("sizing").get("brokerCount").asInt());
            assertThat(boot(instance)).as("what the brokers boot, handed from step to step across the crash")
                    .isEqualTo(recorded);
        }
    }

    /** What the instance's brokers boot, as its stored inventory records it. */
    private static JsonNode boot(String instance) {
        return JsonMapper.shared().readTree(Database.inventory(UUID.fromString(instance))).get("boot");
    }

    private static void awaitStepRunning(UUID operation, int position) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            List<StepRun> steps = Database.steps(operation);
            if (steps.size() > position && steps.get(position).state().equals("RUNNING")) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("Step " + position + " of " + operation + " never started");
    }
}
