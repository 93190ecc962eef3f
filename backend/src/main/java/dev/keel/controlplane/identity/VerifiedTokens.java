package dev.keel.controlplane.identity;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;

/**
 * The identity provider's tokens as {@code decoder} reads them, each remembered until it expires once it has been
 * accepted: a caller sends the same token with every request for its lifetime (minutes), and
 * parsing it and checking its signature again each time was the largest single cost of a request. A token is looked up
 * by its whole text, so a caller is only ever given back the token it sent; one not accepted is never kept, and one
 * past its expiry is read afresh, so the decoder's rules, clock skew included, still decide when it stops being
 * accepted. What this trades: a token stays accepted until it expires even if the identity provider withdraws the key
 * that signed it, as it does until the decoder next reads the key set anyway.
 */
final class VerifiedTokens implements JwtDecoder {

    /** Tokens kept at most: a few megabytes. Past it, the expired are dropped, and all if that is not enough. */
    static final int CAPACITY = 1_000;

    private final JwtDecoder decoder;
    private final Map<String, Jwt> accepted = new ConcurrentHashMap<>();

    VerifiedTokens(JwtDecoder decoder) {
        this.decoder = decoder;
    }

    /** Whether {@code token} was accepted and has not expired since: {@link #decode} would answer it without a check. */
    boolean accepted(String token) {
        return known(token, Instant.now()) != null;
    }

    @Override
    public Jwt decode(String token) throws JwtException {
        Instant now = Instant.now();
        Jwt known = known(token, now);
        if (known != null) {
            return known;
        }
        Jwt jwt = decoder.decode(token);
        // A token without an expiry is accepted as the decoder accepts it, but never kept.
        if (jwt.getExpiresAt() != null && now.isBefore(jwt.getExpiresAt())) {
            if (accepted.size() >= CAPACITY) {
                accepted.values().removeIf(kept -> !now.isBefore(kept.getExpiresAt()));
                if (accepted.size() >= CAPACITY) {
                    accepted.clear();
                }
            }
            accepted.put(token, jwt);
        }
        return jwt;
    }

    /** The token as accepted before, if it has not expired by {@code now}; else null. */
    private Jwt known(String token, Instant now) {
        Jwt kept = accepted.get(token);
        return kept != null && now.isBefore(kept.getExpiresAt()) ? kept : null;
    }
}
