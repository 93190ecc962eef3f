package dev.keel.controlplane.support;

import java.time.Duration;
import java.util.Map;

/**
 * The environment of a backend process in the multi-process tests: the test servers, the no-cloud driver with slow
 * steps, a fast heartbeat, a known ingest secret.
 */
public final class WorkerEnvironment {

    private WorkerEnvironment() {
    }

    /** The ingest secret of every backend process of the tests: played agents derive their tokens from it. */
    public static final String INGEST_SECRET = "keel-test-worker-ingest-secret-0123456789";

    public static Map<String, String> withStepDelay(Duration stepDelay) {
        return Map.of(
                "KEEL_INGEST_SECRET", INGEST_SECRET,
                "KEEL_DB_URL", TestEnvironment.databaseUrl(),
                "KEEL_ISSUER_URI", TestEnvironment.keycloakUrl() + "/realms/byoc",
                "KEEL_PROVISIONING_DRIVER", "no-cloud",
                "KEEL_PROVISIONING_NO_CLOUD_STEP_DELAY", stepDelay.toMillis() + "ms",
                "KEEL_HEARTBEAT_INTERVAL", "1s",
                "KEEL_WORKER_THREADS", "2");
    }
}
