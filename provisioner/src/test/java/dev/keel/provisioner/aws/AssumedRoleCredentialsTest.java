package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

class AssumedRoleCredentialsTest {

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-11-22T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    @Test
    void cachesPerRoleAndExternalIdUntilFiveMinutesBeforeExpiry() {
        MutableClock clock = new MutableClock();
        AtomicInteger calls = new AtomicInteger();
        AssumedRoleCredentials cache = new AssumedRoleCredentials(clock);
        var assume = (java.util.function.Supplier<AssumedRoleCredentials.Assumed>) () -> {
            int n = calls.incrementAndGet();
            return new AssumedRoleCredentials.Assumed(AwsSessionCredentials.create("AK" + n, "secret", "token"),
                    clock.now.plus(Duration.ofHours(1)));
        };
        var provider = cache.provider("arn:role/a", "ext", assume);
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK1");
        clock.now = clock.now.plus(Duration.ofMinutes(54));
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK1");
        clock.now = clock.now.plus(Duration.ofMinutes(1));
        assertThat(provider.resolveCredentials().accessKeyId()).isEqualTo("AK2");
        assertThat(cache.provider("arn:role/a", "other-ext", assume).resolveCredentials().accessKeyId())
                .isEqualTo("AK3");
        assertThat(calls).hasValue(3);
        assertThat(cache.get("arn:role/a", "ext", assume).toString()).doesNotContain("secret", "token");
    }
}
