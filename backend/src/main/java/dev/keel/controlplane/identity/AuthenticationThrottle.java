package dev.keel.controlplane.identity;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.ProblemWriter;

/**
 * Answers 429 with {@code Retry-After}, before its signature is checked, to a token from an address that
 * {@link FailedAuthentications} holds back, unless the API has already accepted that token: colleagues behind the same
 * address as someone sending forged tokens keep working with the tokens they signed in with. The address is the
 * request's remote address as the server sees it, so behind a proxy only as trustworthy as
 * {@code server.forward-headers-strategy} makes it.
 */
final class AuthenticationThrottle extends OncePerRequestFilter {

    private final BearerTokens bearerTokens;
    private final VerifiedTokens verifiedTokens;
    private final FailedAuthentications failures;
    private final ProblemWriter problems;

    AuthenticationThrottle(BearerTokens bearerTokens, VerifiedTokens verifiedTokens, FailedAuthentications failures,
                           ProblemWriter problems) {
        this.bearerTokens = bearerTokens;
        this.verifiedTokens = verifiedTokens;
        this.failures = failures;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // The address first: one map lookup, which on nearly every request finds nothing to hold back, before the
        // token is read and looked up, which the bearer token filter after this one does again.
        Optional<Duration> wait = failures.wait(request.getRemoteAddr());
        if (wait.isEmpty() || !presentsUnacceptedToken(request)) {
            chain.doFilter(request, response);
            return;
        }
        long seconds = Math.max(1, wait.get().plusMillis(999).toSeconds());
        response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(seconds));
        problems.write(request, response, ProblemType.TOO_MANY_FAILED_AUTHENTICATIONS, failures.maxFailures()
                + " tokens from this address were refused within " + failures.window().toSeconds()
                + " s; try again in " + seconds + " s, with a token from the identity provider.", List.of());
    }

    private boolean presentsUnacceptedToken(HttpServletRequest request) {
        try {
            String token = bearerTokens.resolve(request);
            return token != null && !verifiedTokens.accepted(token);
        } catch (OAuth2AuthenticationException malformed) {
            return true;
        }
    }
}
