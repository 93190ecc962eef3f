package dev.keel.controlplane.settings;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.BackendProcess;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged backend, started as an operator would start it without the local-development profile. */
class ProductionSettingsIT {

    private static final Duration REFUSED_WITHIN = Duration.ofSeconds(60);

    @Test
    void withoutTheLocalProfileItRefusesToStartNamingEverySettingItLacks() {
        String output = BackendProcess.refusedStart("settings-missing", Map.of("PATH", System.getenv("PATH")),
                REFUSED_WITHIN);

        assertThat(output).contains("APPLICATION FAILED TO START", "KEEL_PROVISIONING_DRIVER", "KEEL_INGEST_SECRET",
                "KEEL_SECRETS_KEY", "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID", "KEEL_BROKER_REPOSITORY", "KEEL_DB_URL", "KEEL_DB_USERNAME",
                "KEEL_DB_PASSWORD", "KEEL_ISSUER_URI", "SPRING_PROFILES_ACTIVE=local");
    }

    @Test
    void withoutTheLocalProfileItRefusesTheDevelopmentSecretAccountAndDatabasePassword() {
        String output = BackendProcess.refusedStart("settings-development", Map.of("PATH", System.getenv("PATH"),
                "KEEL_PROVISIONING_DRIVER", "aws",
                "KEEL_INGEST_SECRET", "local-development-ingest-secret-0123456789",
                "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID", "000000000000",
                "KEEL_DB_USERNAME", "keel", "KEEL_DB_PASSWORD", "keel"), REFUSED_WITHIN);

        assertThat(output).contains("KEEL_INGEST_SECRET (keel.ingest.secret) has the local-development value",
                        "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID (keel.control-plane.aws-account-id) has the local-development value",
                        "KEEL_DB_PASSWORD (spring.datasource.password) has the local-development value")
                .doesNotContain("KEEL_PROVISIONING_DRIVER (", "KEEL_DB_USERNAME (");
    }

    @Test
    void itRefusesADriverItDoesNotHave() {
        String output = BackendProcess.refusedStart("settings-driver", Map.of("PATH", System.getenv("PATH"),
                "KEEL_PROVISIONING_DRIVER", "gcp"), REFUSED_WITHIN);

        // The tests' fixtures on the loader path bring the no-cloud driver.
        assertThat(output).contains("KEEL_PROVISIONING_DRIVER (keel.provisioning.driver) is gcp, not one of the drivers"
                + " here [aws, no-cloud]");
    }
}
