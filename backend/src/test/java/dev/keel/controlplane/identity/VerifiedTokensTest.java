package dev.keel.controlplane.identity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VerifiedTokensTest {

    /** A decoder that accepts every token but "forged", expiring at the time its text names, and counts its calls. */
    private final List<String> decoded = new ArrayList<>();
    private final JwtDecoder decoder = token -> {
        decoded.add(token);
        if (token.startsWith("forged")) {
            throw new BadJwtException("signature");
        }
        return Jwt.withTokenValue(token).header("alg", "RS256").subject("someone")
                .issuedAt(Instant.now().minusSeconds(60)).expiresAt(Instant.parse(token.substring(token.indexOf('@') + 1)))
                .build();
    };
    private final VerifiedTokens tokens = new VerifiedTokens(decoder);

    @Test
    void aTokenAcceptedOnceIsNotVerifiedAgainUntilItExpires() {
        String token = "a@" + Instant.now().plusSeconds(300);

        Jwt first = tokens.decode(token);
        Jwt second = tokens.decode(token);

        assertThat(second).isSameAs(first);
        assertThat(decoded).containsExactly(token);
    }

    @Test
    void aTokenPastItsExpiryIsLeftToTheDecoder() {
        String expired = "b@" + Instant.now().minusSeconds(1);

        tokens.decode(expired);
        tokens.decode(expired);

        assertThat(decoded).as("the decoder decides again, each time").containsExactly(expired, expired);
    }

    @Test
    void aRefusedTokenIsRefusedEveryTimeAndNeverKept() {
        String forged = "forged@" + Instant.now().plusSeconds(300);

        assertThatThrownBy(() -> tokens.decode(forged)).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> tokens.decode(forged)).isInstanceOf(BadJwtException.class);
        assertThat(decoded).containsExactly(forged, forged);
    }

    @Test
    void onlyTheTokenSentIsGivenBack() {
        Instant expiry = Instant.now().plusSeconds(300);
        tokens.decode("a@" + expiry);

        Jwt other = tokens.decode("c@" + expiry);

        assertThat(other.getTokenValue()).isEqualTo("c@" + expiry);
    }

    @Test
    void keepsAtMostItsCapacityDroppingTheExpiredFirst() {
        Instant later = Instant.now().plusSeconds(300);
        for (int i = 0; i < VerifiedTokens.CAPACITY; i++) {
            tokens.decode("t" + i + "@" + later);
        }
        decoded.clear();

        tokens.decode("one-more@" + later);
        tokens.decode("t0@" + later);

        assertThat(decoded).as("past its capacity none expired: it starts again empty")
                .containsExactly("one-more@" + later, "t0@" + later);
    }
}
