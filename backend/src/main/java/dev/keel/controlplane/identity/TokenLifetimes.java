package dev.keel.controlplane.identity;

import java.time.Duration;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;

/**
 * Tokens are read by the decoder Spring Boot builds from the issuer settings, which takes this validator in place of
 * its own timestamp check, keeping the issuer, audience and type checks: Spring's default lets a token through for
 * 60 s past its expiry, far more than the clocks of the identity provider and the control plane drift apart.
 */
@Configuration
class TokenLifetimes {

    /** The most a token's expiry ({@code exp}) or start ({@code nbf}) may be off and still be honoured. */
    static final Duration CLOCK_SKEW = Duration.ofSeconds(5);

    @Bean
    JwtTimestampValidator tokenLifetime() {
        return new JwtTimestampValidator(CLOCK_SKEW);
    }
}
