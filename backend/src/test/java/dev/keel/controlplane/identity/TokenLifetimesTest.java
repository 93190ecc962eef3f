package dev.keel.controlplane.identity;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.function.Consumer;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.servlet.OAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtValidationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The decoder Spring Boot builds from the settings the backend ships (issuer, key set, audience), with
 * {@link TokenLifetimes}, reading tokens signed here with a key it fetches from a key set served here.
 */
class TokenLifetimesTest {

    /** What the backend's own security configuration brings: HttpSecurity, for Boot's resource server chain. */
    @EnableWebSecurity
    static class WebSecurity {
    }

    private static final String ISSUER = "http://localhost:8180/realms/byoc";

    private RSAKey key;
    private HttpServer keySet;
    private WebApplicationContextRunner backend;

    @BeforeEach
    void serveKeySet() throws JOSEException, IOException {
        key = new RSAKeyGenerator(2048).keyID("test").generate();
        byte[] keys = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
        keySet = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        keySet.createContext("/certs", exchange -> {
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, keys.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(keys);
            }
        });
        keySet.start();
        backend = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OAuth2ResourceServerAutoConfiguration.class))
                .withUserConfiguration(WebSecurity.class, TokenLifetimes.class)
                .withPropertyValues("spring.security.oauth2.resourceserver.jwt.issuer-uri=" + ISSUER,
                        "spring.security.oauth2.resourceserver.jwt.jwk-set-uri=http://127.0.0.1:"
                                + keySet.getAddress().getPort() + "/certs",
                        "spring.security.oauth2.resourceserver.jwt.audiences=keel-api");
    }

    @AfterEach
    void stopKeySet() {
        keySet.stop(0);
    }

    @Test
    void aTokenIsHonouredUpToFiveSecondsPastItsExpiryAndNoLonger() {
        backend.run(context -> {
            JwtDecoder decoder = context.getBean(JwtDecoder.class);
            Instant now = Instant.now();

            assertThat(decoder.decode(token(claims -> claims.expirationTime(Date.from(now.minusSeconds(2))))).getSubject())
                    .isEqualTo("someone");
            assertThatThrownBy(() -> decoder.decode(token(claims -> claims.expirationTime(Date.from(now.minusSeconds(7))))))
                    .isInstanceOf(JwtValidationException.class).hasMessageContaining("expired");
        });
    }

    @Test
    void aTokenIsHonouredFromFiveSecondsBeforeItsStartAndNoEarlier() {
        backend.run(context -> {
            JwtDecoder decoder = context.getBean(JwtDecoder.class);
            Instant now = Instant.now();

            assertThat(decoder.decode(token(claims -> claims.notBeforeTime(Date.from(now.plusSeconds(2))))).getSubject())
                    .isEqualTo("someone");
            assertThatThrownBy(() -> decoder.decode(token(claims -> claims.notBeforeTime(Date.from(now.plusSeconds(8))))))
                    .isInstanceOf(JwtValidationException.class).hasMessageContaining("used before");
        });
    }

    @Test
    void theIssuerAndAudienceAreStillChecked() {
        backend.run(context -> {
            JwtDecoder decoder = context.getBean(JwtDecoder.class);

            assertThatThrownBy(() -> decoder.decode(token(claims -> claims.issuer("http://elsewhere/realms/byoc"))))
                    .isInstanceOf(JwtValidationException.class).hasMessageContaining("iss");
            assertThatThrownBy(() -> decoder.decode(token(claims -> claims.audience("another-api"))))
                    .isInstanceOf(JwtValidationException.class).hasMessageContaining("aud");
        });
    }

    /** A token as the identity provider issues them, valid for five minutes, but for what {@code change} sets. */
    private String token(Consumer<JWTClaimsSet.Builder> change) throws JOSEException {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(ISSUER).subject("someone").audience("keel-api")
                .issueTime(Date.from(now.minusSeconds(60))).expirationTime(Date.from(now.plusSeconds(300)));
        change.accept(claims);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID())
                .type(JOSEObjectType.JWT).build(), claims.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
