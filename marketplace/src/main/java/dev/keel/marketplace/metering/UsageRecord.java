package dev.keel.marketplace.metering;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One buyer's usage of one dimension in one hour. A buyer of a listing from June 2026 on is its AWS account and
 * licence ({@code licenseArn}); a buyer of an older listing may have only the legacy {@code customerIdentifier}, and
 * then {@code licenseArn} is null.
 */
public record UsageRecord(String customerAwsAccountId, String licenseArn, String customerIdentifier, String dimension,
                          Instant hour, int quantity) {

    public UsageRecord {
        Objects.requireNonNull(dimension, "dimension");
        Objects.requireNonNull(hour, "hour");
        if (!hour.truncatedTo(ChronoUnit.HOURS).equals(hour)) {
            throw new IllegalArgumentException("hour must be the start of an hour: " + hour);
        }
        if (quantity < 0) {
            throw new IllegalArgumentException("quantity must not be negative: " + quantity);
        }
        if (licenseArn == null ? customerIdentifier == null : customerAwsAccountId == null) {
            throw new IllegalArgumentException("a usage record names the buyer's account and licence, or the legacy"
                    + " customer identifier");
        }
    }

    boolean legacy() {
        return licenseArn == null;
    }

    /** Who AWS counts the hour against, in what a result echoes back (a result does not repeat the licence). */
    String echoedKey() {
        return (legacy() ? customerIdentifier : customerAwsAccountId) + "|" + dimension + "|" + hour;
    }
}
