package dev.keel.controlplane.operations;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.FreePorts;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Twenty FSWAL creates wait on FSx for ONTAP lifecycles as AWS paces them (an emulator of this test's own, AWS's
 * durations scaled by {@value #SCALE}, the backend's waits alike) with four workers: their waits hold none of them,
 * so a scale of another instance starts within a second of being asked, as it does with nothing else going on.
 */
class WaitingStepsFreeWorkersIT {

    private static final double SCALE = 0.02;
    private static final int CREATES = 20;
    private static final Duration QUEUED_AT_MOST = Duration.ofSeconds(1);

    @Test
    void aScaleStartsWithinASecondWhileTwentyCreatesWaitOnFsx() throws Exception {
        int port = FreePorts.any();
        Path log = Path.of("target", "it-logs", "fsx-realistic-emulator.log");
        Files.createDirectories(log.getParent());
        Process emulator = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-jar",
                Path.of("..", "aws-emulator", "target", "keel-aws-emulator.jar").toString(), "--port",
                Integer.toString(port), "--fsx-lifecycle", "realistic", "--time-scale", Double.toString(SCALE))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await("the FSx emulator").atMost(Duration.ofSeconds(60)).until(() -> healthy(port));
            Map<String, String> environment = new HashMap<>(OnboardedAccount.awsEnvironment());
            environment.put("KEEL_FSX_ENDPOINT", "http://localhost:" + port);
            environment.put("KEEL_AWS_WAIT_SCALE", Double.toString(SCALE));
            environment.put("KEEL_WORKER_THREADS", "4");
            environment.put("KEEL_DRIFT_AUTO_REPAIR", "false");
            try (BackendProcess backend = BackendProcess.start("free-workers-" + Fixtures.unique("w"), environment)
                    .withPlayedAgents()) {
                ApiClient api = backend.api(Fixtures.EDITOR);
                OnboardedAccount account = new OnboardedAccount(api);
                JsonNode other = api.post("/instances", account.instanceBody("S3", 1, 3, null)).json();
                assertThat(OnboardedAccount.finished(api, other.get("id").asString()).get("state").asString())
                        .isEqualTo("SUCCEEDED");
                String instance = other.get("instanceId").asString();
                Duration alone = queued(api, scale(api, instance, 4));

                List<String> creates = new ArrayList<>();
                for (int i = 0; i < CREATES; i++) {
                    creates.add(api.post("/instances", account.instanceBody("FSWAL", 3, 3,
                            Map.of("throughputMBps", 384, "count", 1))).json().get("id").asString());
                }
                await("every create waiting on its file system").atMost(Duration.ofMinutes(3)).until(() -> creates
                        .stream().allMatch(id -> waitingOnFileSystems(api.get("/operations/" + id).json())));
                Duration busy = queued(api, scale(api, instance, 5));
                System.out.printf("a scale waited %d ms for a worker alone, %d ms beside %d creates waiting on FSx%n",
                        alone.toMillis(), busy.toMillis(), CREATES);
                assertThat(busy).as("waiting creates hold no worker").isLessThanOrEqualTo(QUEUED_AT_MOST);

                List<String> deletions = new ArrayList<>();
                for (String id : creates) {
                    JsonNode created = OnboardedAccount.finished(api, id);
                    assertThat(created.get("state").asString()).isEqualTo("SUCCEEDED");
                    deletions.add(api.delete("/instances/" + created.get("instanceId").asString()).json().get("id")
                            .asString());
                }
                for (String deletion : deletions) {
                    assertThat(OnboardedAccount.finished(api, deletion).get("state").asString()).isEqualTo("SUCCEEDED");
                }
            }
        } finally {
            emulator.destroy();
        }
    }

    /** Scales the instance to {@code aku} and returns the finished operation. */
    private static JsonNode scale(ApiClient api, String instance, int aku) {
        String etag = api.get("/instances/" + instance).header("ETag").orElseThrow();
        JsonNode operation = api.header("If-Match", etag).patch("/instances/" + instance, Map.of("aku", aku)).json();
        JsonNode finished = OnboardedAccount.finished(api, operation.get("id").asString());
        assertThat(finished.get("state").asString()).isEqualTo("SUCCEEDED");
        return finished;
    }

    /** How long the operation waited for a worker: from being asked to its first step starting. */
    private static Duration queued(ApiClient api, JsonNode operation) {
        return Duration.between(Instant.parse(operation.get("createdAt").asString()),
                Instant.parse(operation.get("startedAt").asString()));
    }

    private static boolean waitingOnFileSystems(JsonNode operation) {
        for (JsonNode step : operation.get("steps")) {
            if (step.get("name").asString().equals("create-wal-file-systems")) {
                return step.get("state").asString().equals("RUNNING")
                        && step.get("message").asString("").startsWith("Waiting for");
            }
        }
        return false;
    }

    private static boolean healthy(int port) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/_emulator/health")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
