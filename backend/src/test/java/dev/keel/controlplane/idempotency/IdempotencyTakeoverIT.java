package dev.keel.controlplane.idempotency;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.controlplane.support.WorkerEnvironment;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code kill -9} of the backend in the middle of a keyed {@code POST /instances}, after its change committed and
 * before its answer was stored, or before it changed anything; then the same request, retried at once through the next
 * process (the dead one's hold on the key ended with it): answered as the dead request would have been, or processed
 * afresh. The instance exists once either way.
 */
class IdempotencyTakeoverIT {

    private final JdbcClient jdbc = JdbcClient.create(Database.dataSource(TestEnvironment.databaseUrl()));

    @Test
    void aRequestKilledMidwayIsAnsweredFromItsChangeOrProcessedAfreshByTheNextProcess() throws Exception {
        Killed afterChange = killedAt("after-change");
        Killed beforeChange = killedAt("before-change");
        assertThat(instancesNamed(afterChange)).as("its change committed").isEqualTo(1);
        assertThat(instancesNamed(beforeChange)).as("nothing changed").isZero();

        try (BackendProcess successor = start("successor", Map.of())) {
            ApiClient.Response answered = afterChange.retry(successor);
            assertThat(answered.status()).as(answered.toString()).isEqualTo(202);
            assertThat(answered.header("Idempotency-Replayed")).contains("true");
            assertThat(answered.json().get("type").asString()).isEqualTo("CREATE");
            assertThat(answered.json().get("adminCredentials").get("password").asString()).isNotEmpty();
            successor.api(Fixtures.EDITOR).await("/operations/" + answered.json().get("id").asString(),
                    op -> op.get("state").asString().equals("SUCCEEDED"), Duration.ofSeconds(90));
            assertThat(instancesNamed(afterChange)).isEqualTo(1);

            ApiClient.Response processed = beforeChange.retry(successor);
            assertThat(processed.status()).as(processed.toString()).isEqualTo(202);
            assertThat(processed.header("Idempotency-Replayed")).isEmpty();
            assertThat(instancesNamed(beforeChange)).isEqualTo(1);
        }
    }

    /** A keyed create sent to a process that killed itself at {@code point} of it. */
    private record Killed(String key, String payload, String name) {

        ApiClient.Response retry(BackendProcess backend) {
            return backend.api(Fixtures.EDITOR).header("Idempotency-Key", key).post("/instances", payload);
        }
    }

    private static Killed killedAt(String point) throws InterruptedException {
        try (BackendProcess doomed = start("doomed-" + point, Map.of("KEEL_API_TEST_FAULTS_KILL_AT", point))) {
            ApiClient api = doomed.api(Fixtures.EDITOR);
            Map<String, Object> body = Fixtures.instanceBody(Fixtures.registerAccount(api).get("id").asString(), "S3",
                    1, 3);
            String payload = JsonMapper.shared().writeValueAsString(body);
            String key = UUID.randomUUID().toString();
            assertThatThrownBy(() -> api.header("Idempotency-Key", key).post("/instances", payload))
                    .as("no answer: the process died").isInstanceOf(IllegalStateException.class);
            assertThat(doomed.awaitExit(Duration.ofSeconds(60))).as("killed " + point).isTrue();
            return new Killed(key, payload, (String) body.get("name"));
        }
    }

    private int instancesNamed(Killed killed) {
        return jdbc.sql("SELECT count(*) FROM instances WHERE name = ?").param(killed.name()).query(Integer.class)
                .single();
    }

    private static BackendProcess start(String name, Map<String, String> settings) {
        Map<String, String> environment = new HashMap<>(WorkerEnvironment.withStepDelay(Duration.ofMillis(100)));
        environment.putAll(settings);
        return BackendProcess.start(name + "-" + UUID.randomUUID().toString().substring(0, 6), environment);
    }
}
