package dev.keel.provisioner.aws;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * Credentials for the customer's account, obtained with {@code sts:AssumeRole} and cached per
 * (role ARN, external id) until {@link #REFRESH_BEFORE_EXPIRY} before they expire. The credentials
 * are never logged; {@link Assumed#toString()} hides them.
 */
public final class AssumedRoleCredentials {

    public static final Duration REFRESH_BEFORE_EXPIRY = Duration.ofMinutes(5);

    public record Assumed(AwsSessionCredentials credentials, Instant expiration) {
        @Override
        public String toString() {
            return "Assumed[credentials=<hidden>, expiration=" + expiration + "]";
        }
    }

    private record Key(String roleArn, String externalId) {
    }

    private final Clock clock;
    private final Map<Key, Assumed> cache = new ConcurrentHashMap<>();

    public AssumedRoleCredentials(Clock clock) {
        this.clock = clock;
    }

    /**
     * A provider that resolves to cached credentials for the role, calling {@code assume} (STS) again
     * when they are near expiry.
     */
    public AwsCredentialsProvider provider(String roleArn, String externalId, Supplier<Assumed> assume) {
        return () -> get(roleArn, externalId, assume).credentials();
    }

    public Assumed get(String roleArn, String externalId, Supplier<Assumed> assume) {
        Key key = new Key(roleArn, externalId);
        Assumed cached = cache.get(key);
        if (fresh(cached)) {
            return cached;
        }
        return cache.compute(key, (k, current) -> fresh(current) ? current
                : assume.get());
    }

    private boolean fresh(Assumed assumed) {
        return assumed != null && clock.instant().isBefore(assumed.expiration().minus(REFRESH_BEFORE_EXPIRY));
    }
}
