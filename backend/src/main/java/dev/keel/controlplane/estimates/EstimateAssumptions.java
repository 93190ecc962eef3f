package dev.keel.controlplane.estimates;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The assumptions a caller may change: how the self-managed comparison buys its brokers, whether its consumers read
 * from a replica in their own zone (follower fetching), and how much producers compress. Null: the default, which is
 * what estimates assumed before they could be changed.
 */
public record EstimateAssumptions(PurchaseOption purchaseOption, Boolean followerFetching, Double compressionRatio) {

    static final String PURCHASE_OPTION = "purchaseOption";
    static final String FOLLOWER_FETCHING = "followerFetching";
    static final String COMPRESSION_RATIO = "compressionRatio";

    static final double MIN_COMPRESSION_RATIO = 1;
    /** Beyond what text and JSON reach with zstd; a higher figure would price data nobody produces. */
    static final double MAX_COMPRESSION_RATIO = 20;

    static final EstimateAssumptions NONE_GIVEN = new EstimateAssumptions(null, null, null);

    EstimateAssumptions withDefaults() {
        return new EstimateAssumptions(Objects.requireNonNullElse(purchaseOption, PurchaseOption.ON_DEMAND),
                Objects.requireNonNullElse(followerFetching, false), Objects.requireNonNullElse(compressionRatio, 1.0));
    }

    /** The names of the assumptions this request gives. */
    Set<String> given() {
        Set<String> given = new LinkedHashSet<>();
        if (purchaseOption != null) {
            given.add(PURCHASE_OPTION);
        }
        if (followerFetching != null) {
            given.add(FOLLOWER_FETCHING);
        }
        if (compressionRatio != null) {
            given.add(COMPRESSION_RATIO);
        }
        return given;
    }
}
