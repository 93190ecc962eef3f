package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

import dev.keel.provisioner.MovingClock;

class AssumedRoleCredentialsTest {

    @Test
    void cachesPerRoleAndExternalIdUntilFiveMinutesBeforeExpiry() {
        MovingClock clock = new MovingClock(Instant.parse("2026-11-22T10:00:00Z"));
        AtomicInteger calls = new AtomicInteger();
        AssumedRoleCredentials cache = new AssumedRoleCredentials(clock);
        var assume = (java.util.function.Supplier<AssumedRoleCredentials.Assumed>) () -> {
            int n = calls.incrementAndGet();
            return new AssumedRoleCredentials.Assumed(AwsSessionCredentials.create("AK" + n, "secret", "token"),
                    clock.instant().plus(Duration.ofHours(1)));
        };
        var provider = cache.provider("arn:role/a", "ext", assume);
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK1");
        clock.advance(Duration.ofMinutes(54));
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK1");
        clock.advance(Duration.ofMinutes(1));
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK2");
        assertThat(cache.provider("arn:role/a", "other-ext", assume).resolveCredentials().accessKeyId())
                .isEqualTo("AK3");
        assertThat(calls).hasValue(3);
        assertThat(cache.get("arn:role/a", "ext", assume).toString()).doesNotContain("secret", "token");
    }
}
