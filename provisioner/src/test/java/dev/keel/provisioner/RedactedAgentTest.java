package dev.keel.provisioner;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The ingest token an instance's agents use never reaches a log line through a target's {@code toString}. */
class RedactedAgentTest {

    @Test
    void anAgentNamesWhereItReportsButNotItsToken() {
        String token = "k1.4f7c0d2e9b.secret-ingest-token";

        String shown = new ProvisioningTarget.Agent(new BootImage("ami-0abc", "keel/broker:1.4.1"),
                "https://ingest.keel.example", token).toString();

        assertThat(shown).contains("https://ingest.keel.example", "ami-0abc", "(redacted)").doesNotContain(token);
    }
}
