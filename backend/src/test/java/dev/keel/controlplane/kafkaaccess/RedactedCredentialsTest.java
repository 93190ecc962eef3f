package dev.keel.controlplane.kafkaaccess;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.instances.DefaultKafkaUser;

import static org.assertj.core.api.Assertions.assertThat;

/** A Kafka password never reaches a log line or an exception message through a record's {@code toString}. */
class RedactedCredentialsTest {

    private static final String PASSWORD = "Vx9-secret-password-Q2";

    @Test
    void credentialsNameTheUserButNotThePassword() {
        assertThat(new KafkaUsers.Credentials(null, PASSWORD).toString()).doesNotContain(PASSWORD).contains("(redacted)");
        assertThat(new DesiredAccess.User("orders-app", 3, PASSWORD).toString())
                .contains("orders-app", "credentialVersion=3").doesNotContain(PASSWORD);
        assertThat(new DefaultKafkaUser.AdminCredentials("admin", PASSWORD).toString())
                .contains("admin").doesNotContain(PASSWORD);
    }
}
