package dev.keel.provisioner.aws.resources;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.s3.model.LifecycleRule;

import static org.assertj.core.api.Assertions.assertThat;

class RetentionBackstopTest {

    private static final Instant KEPT = Instant.parse("2026-11-25T16:40:00Z");

    @Test
    void theDataExpiresOnTheFirstMidnightAtLeastADayAfterTheRetentionEnds() {
        LifecycleRule rule = Buckets.retentionBackstop(Instant.parse("2026-12-02T16:40:00Z"), KEPT);

        assertThat(rule.id()).isEqualTo(Buckets.RETENTION_BACKSTOP);
        assertThat(rule.filter().prefix()).isEmpty();
        assertThat(rule.expiration().date()).isEqualTo(Instant.parse("2026-12-04T00:00:00Z"));
    }

    @Test
    void aRetentionEndingAtMidnightExpiresExactlyADayLater() {
        assertThat(Buckets.retentionBackstop(Instant.parse("2026-12-02T00:00:00Z"), KEPT).expiration().date())
                .isEqualTo(Instant.parse("2026-12-03T00:00:00Z"));
        assertThat(Buckets.retentionBackstop(Instant.parse("2026-12-01T23:59:59Z"), KEPT).expiration().date())
                .isEqualTo(Instant.parse("2026-12-03T00:00:00Z"));
    }

    @Test
    void aVersionOverwrittenDuringTheRetentionOutlivesTheExpiryDate() {
        LifecycleRule rule = Buckets.retentionBackstop(Instant.parse("2026-12-02T16:40:00Z"), KEPT);

        int days = rule.noncurrentVersionExpiration().noncurrentDays();
        assertThat(KEPT.plus(Duration.ofDays(days))).isAfterOrEqualTo(rule.expiration().date());
    }
}
