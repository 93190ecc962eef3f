package dev.keel.controlplane.billing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

import org.springframework.core.env.Environment;
import org.springframework.http.ResponseCookie;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.settings.ProductionSettings;

/**
 * Binds a registration to the browser AWS Marketplace sent: the registration URL gives that browser a secret in a
 * cookie, and the registration is read and linked only with it, so a reference that leaks (a shared link, a
 * screenshot, a log) is of no use anywhere else. Only the secret's hash is kept.
 */
@Component
class RegistrationBrowser {

    static final String COOKIE = "keel-marketplace-registration";
    /** Sent with the registration API's requests only, which the console makes on the registration URL's host. */
    private static final String PATH = "/api/v1/marketplace/registrations";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final boolean secure;

    /** The local profile serves plain HTTP on localhost, where a Secure cookie would never come back. */
    RegistrationBrowser(Environment environment) {
        this.secure = !environment.matchesProfiles(ProductionSettings.LOCAL_PROFILE);
    }

    static String newSecret() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /** Whether {@code secret}, from the request's cookie (null if it had none), is the one kept as {@code sha256}. */
    static boolean matches(String secret, byte[] sha256) {
        return secret != null && sha256 != null && MessageDigest.isEqual(sha256(secret), sha256);
    }

    /**
     * SameSite=Lax, not Strict: the browser arrives by a cross-site POST from AWS and a 303 to the console, and Strict
     * cookies are withheld on every request of a navigation another site started, so a page that read the cookie on
     * arrival would break. Lax gains nothing for an attacker: the cookie goes on a cross-site request only with a
     * top-level GET navigation, which the API answers with nothing but a 401 (it reads the cookie only with a bearer
     * token), while the console's {@code fetch} calls come from its own origin (same-site, so Lax sends it, behind the
     * Vite proxy in development too). None would send it with every other site's requests. The cookie is set on the
     * POST's own answer: a response to a top-level navigation may set a Lax cookie whichever site started it.
     */
    ResponseCookie cookie(String secret, Duration lifetime) {
        return ResponseCookie.from(COOKIE, secret).httpOnly(true).secure(secure).sameSite("Lax").path(PATH)
                .maxAge(lifetime).build();
    }
}
