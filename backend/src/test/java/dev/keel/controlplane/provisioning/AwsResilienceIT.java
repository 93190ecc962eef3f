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

    @Test
    void aWorkerKilledDuringLaunchOrTerminationIsFinishedByTheNextWithoutDuplicatesOrOrphans() throws Exception {
        Map<String, String> environment = OnboardedAccount.awsEnvironment();
        BackendProcess first = BackendProcess.start("crash-a-" + Fixtures.unique("w"), environment);
        OnboardedAccount account;
        String operation;
        String instance;
        try {
            ApiClient api = first.api(Fixtures.EDITOR);
            account = new OnboardedAccount(api);
            JsonNode created = api.post("/instances", account.instanceBody("S3", 3, 3, null)).json();
            operation = created.get("id").asString();
            instance = created.get("instanceId").asString();
            awaitStepRunning(environment, operation, "launch-brokers");
        } finally {
            first.kill();
        }
        BackendProcess second = BackendProcess.start("crash-b-" + Fixtures.unique("w"), environment);
        String deletion;
        try {
            ApiClient api = second.api(Fixtures.EDITOR);
            assertThat(OnboardedAccount.finished(api, operation).get("state").asString()).isEqualTo("SUCCEEDED");
            JsonNode running = api.get("/instances/" + instance).json();
            assertThat(account.customer.runningBrokers(instance)).as("no broker launched twice")
                    .isEqualTo(running.get("sizing").get("brokerCount").asLong());
            assertThat(attemptsOf(environment, operation, "launch-brokers")).isEqualTo(2);

            deletion = api.delete("/instances/" + instance).json().get("id").asString();
            awaitStepRunning(environment, deletion, "terminate-brokers");
        } finally {
            second.kill();
        }
        try (BackendProcess third = BackendProcess.start("crash-c-" + Fixtures.unique("w"), environment)) {
            ApiClient api = third.api(Fixtures.EDITOR);
            assertThat(OnboardedAccount.finished(api, deletion).get("state").asString()).isEqualTo("SUCCEEDED");
            assertThat(account.customer.leftovers(instance)).as("nothing orphaned").isEmpty();
        }
    }

    @Test
    void withThirtyPercentOfAwsCallsFailingTransientlyEveryOperationStillSucceeds() throws Exception {
        Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
        environment.put("KEEL_PROVISIONING_AWS_TESTFAULTS_TRANSIENTSHARE", "0.3");
        try (BackendProcess backend = BackendProcess.start("faults-" + Fixtures.unique("w"), environment)) {
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
        try (BackendProcess backend = BackendProcess.start("denied-" + Fixtures.unique("w"), environment)) {
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
            assertThat(account.customer.leftovers(instance)).isEmpty();
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
