package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.InstanceLifecycle;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Provisioning when things go wrong, against LocalStack: a worker killed mid-step, a share of AWS
 * calls failing, a permission missing. Afterwards the account holds exactly what the spec says.
 */
class AwsResilienceIT {

    /**
     * A 3-zone FSWAL create and its delete, each with a worker killed in two of its steps: one waiting for FSx, one
     * waiting for EC2. The next worker resumes each killed step (a second attempt) and the account ends up with
     * exactly the desired resources, then none.
     */
    @Test
    void aWorkerKilledAtSeveralStepsOfACreateAndADeleteIsFinishedByTheNextWithoutDuplicatesOrOrphans() throws Exception {
        Map<String, String> environment = OnboardedAccount.awsEnvironment();
        BackendProcess worker = BackendProcess.start("crash-" + Fixtures.unique("w"), environment).withPlayedAgents();
        try {
            ApiClient api = worker.api(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances",
                    account.instanceBody("FSWAL", 3, 6, Map.of("throughputMBps", 384, "count", 2))).json();
            String creation = created.get("id").asString();
            String instance = created.get("instanceId").asString();
            List<String> createKills = List.of("create-wal-file-systems", "launch-brokers");
            worker = killIn(worker, environment, creation, createKills);

            api = worker.api(Fixtures.EDITOR);
            assertSucceeded(api, creation);
            JsonNode running = api.get("/instances/" + instance).json();
            assertThat(account.customer.runningBrokers(instance)).as("no broker launched twice")
                    .isEqualTo(running.get("sizing").get("brokerCount").asLong());
            assertThat(account.customer.fileSystems(instance)).as("no file system created twice").isEqualTo(2);
            createKills.forEach(step -> assertThat(attemptsOf(environment, creation, step)).as(step).isEqualTo(2));

            String deletion = api.delete("/instances/" + instance).json().get("id").asString();
            List<String> deleteKills = List.of("terminate-brokers", "delete-wal-file-systems");
            worker = killIn(worker, environment, deletion, deleteKills);

            assertSucceeded(worker.api(Fixtures.EDITOR), deletion);
            deleteKills.forEach(step -> assertThat(attemptsOf(environment, deletion, step)).as(step).isEqualTo(2));
            assertThat(account.customer.leftoversBesideKeptData(instance)).as("nothing orphaned").isEmpty();
        } finally {
            worker.close();
        }
    }

    /** Kills the worker ({@code kill -9}) while each of {@code steps} runs, starting the next; returns the last. */
    private static BackendProcess killIn(BackendProcess worker, Map<String, String> environment, String operation,
                                         List<String> steps) throws InterruptedException {
        for (String step : steps) {
            awaitStepRunning(environment, operation, step);
            worker.kill();
            worker = BackendProcess.start("crash-" + Fixtures.unique("w"), environment).withPlayedAgents();
        }
        return worker;
    }

    @Test
    void withThirtyPercentOfAwsCallsFailingTransientlyEveryOperationStillSucceeds() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        environment.put("KEEL_PROVISIONING_AWS_TESTFAULTS_TRANSIENTSHARE", "0.3");
        try (BackendProcess backend = BackendProcess.start("faults-" + Fixtures.unique("w"), environment)
                .withPlayedAgents()) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            InstanceLifecycle.run(api, account, account.instanceBody("EBS", 1, 3, null), 6, null);
            InstanceLifecycle.run(api, account, account.instanceBody("S3", 3, 3, null), 6, null);
            InstanceLifecycle.run(api, account,
                    account.instanceBody("FSWAL", 3, 6, Map.of("throughputMBps", 384, "count", 2)), 9, 3);
        }
    }

    @Test
    void aDeniedActionFailsTheOperationNamingTheAction() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        environment.put("KEEL_PROVISIONING_AWS_TESTFAULTS_DENIEDOPERATIONS", "RunInstances");
        try (BackendProcess backend = BackendProcess.start("denied-" + Fixtures.unique("w"), environment)
                .withPlayedAgents()) {
            ApiClient api = backend.api(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
            String instance = created.get("instanceId").asString();

            JsonNode failed = OnboardedAccount.finished(api, created.get("id").asString());

            assertThat(failed.get("state").asString()).isEqualTo("FAILED");
            assertThat(failed.get("error").get("message").asString()).contains("ec2:RunInstances");
            JsonNode view = api.get("/instances/" + instance).json();
            assertThat(view.get("state").asString()).isEqualTo("FAILED");
            assertThat(view.get("conditions").toString()).contains("ec2:RunInstances");
            assertSucceeded(api, api.delete("/instances/" + instance).json().get("id").asString());
            assertThat(account.customer.leftoversBesideKeptData(instance)).isEmpty();
        }
    }

    private static void assertSucceeded(ApiClient api, String operation) {
        JsonNode done = OnboardedAccount.finished(api, operation);
        assertThat(done.get("state").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
    }

    private static int attemptsOf(Map<String, String> environment, String operation, String step) {
        return Database.steps(environment.get("KEEL_DB_URL"), UUID.fromString(operation)).stream().filter(s -> s.name().equals(step)).findFirst()
                .orElseThrow().attempts();
    }

    private static void awaitStepRunning(Map<String, String> environment, String operation, String step)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            List<Database.StepRun> steps = Database.steps(environment.get("KEEL_DB_URL"), UUID.fromString(operation));
            if (steps.stream().anyMatch(s -> s.name().equals(step) && s.state().equals("RUNNING"))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("Step " + step + " of " + operation + " never ran");
    }
}
