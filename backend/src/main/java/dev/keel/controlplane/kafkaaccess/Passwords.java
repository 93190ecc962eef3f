package dev.keel.controlplane.kafkaaccess;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.secrets.SecretBox;

/** Kafka users' passwords: generated here, shown once, kept only sealed under the user and its credential version. */
@Component
class Passwords {

    /** 24 random bytes are 32 URL-safe base64 characters, 192 bits of entropy. */
    private static final int RANDOM_BYTES = 24;

    private final SecureRandom random = new SecureRandom();
    private final SecretBox secrets;

    Passwords(SecretBox secrets) {
        this.secrets = secrets;
    }

    String generate() {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    byte[] seal(String password, UUID instanceId, String user, int credentialVersion) {
        return secrets.seal(password, context(instanceId, user, credentialVersion));
    }

    String open(byte[] sealed, UUID instanceId, String user, int credentialVersion) {
        return secrets.openString(sealed, context(instanceId, user, credentialVersion));
    }

    private static String context(UUID instanceId, String user, int credentialVersion) {
        return "kafka-user:" + instanceId + ":" + user + ":" + credentialVersion;
    }
}
