package dev.keel.controlplane.identity;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Credentials of an instance's broker agents towards the control plane. A token is an HMAC of the
 * instance id under the control plane's secret: it is never stored, a resumed operation derives
 * the same one, and it lets an agent report for its own instance only.
 */
@Component
public class InstanceTokens {

    private final SecretKeySpec key;

    public InstanceTokens(@Value("${keel.ingest.secret}") String secret) {
        if (secret.length() < 32) {
            throw new IllegalStateException("keel.ingest.secret must be at least 32 characters");
        }
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    public String of(UUID instanceId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal(("ingest:" + instanceId).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean matches(UUID instanceId, String token) {
        return token != null && MessageDigest.isEqual(of(instanceId).getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }
}
