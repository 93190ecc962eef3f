package dev.keel.controlplane.tls;

import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateCrtKey;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An instance's CA key, opened for signing, never reaches a log line through the record's {@code toString}. */
class RedactedAuthorityTest {

    @Test
    void anOpenedAuthorityNamesItsInstanceButNotItsKey() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
        UUID instanceId = UUID.randomUUID();

        String shown = new CertificateAuthority(instanceId, null, null, key).toString();

        assertThat(shown).contains(instanceId.toString(), "(redacted)")
                .doesNotContain(key.getPrivateExponent().toString(), key.getPrivateExponent().toString(16));
    }
}
