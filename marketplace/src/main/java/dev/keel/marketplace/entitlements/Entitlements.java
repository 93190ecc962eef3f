package dev.keel.marketplace.entitlements;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import software.amazon.awssdk.services.marketplaceentitlement.MarketplaceEntitlementClient;
import software.amazon.awssdk.services.marketplaceentitlement.model.GetEntitlementsResponse;

/** Reads what a buyer's licence allows with GetEntitlements (us-east-1, the seller's credentials). */
public final class Entitlements {

    /** The contract dimension that caps the AKU a buyer runs at once. */
    public static final String AKU_DIMENSION = "aku";

    private final MarketplaceEntitlementClient client;
    private final Clock clock;

    public Entitlements(MarketplaceEntitlementClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /**
     * The buyer's AKU entitlement: the largest unexpired {@code aku} value of all its pages, or pay-as-you-go when it
     * has none (a subscription without a contract, or a contract that ran out).
     */
    public Entitlement read(String productCode, EntitlementFilter buyer) {
        // SDK 2.40's filter enum predates LICENSE_ARN and CUSTOMER_AWS_ACCOUNT_ID: the string form sends any name.
        Map<String, List<String>> filter = Map.of(buyer.filterName(), List.of(buyer.filterValue()),
                "DIMENSION", List.of(AKU_DIMENSION));
        Instant now = clock.instant();
        OptionalInt most = OptionalInt.empty();
        String next = null;
        do {
            String token = next;
            GetEntitlementsResponse page = client.getEntitlements(r -> r.productCode(productCode)
                    .filterWithStrings(Map.copyOf(filter)).nextToken(token));
            for (var entitlement : page.entitlements()) {
                boolean current = entitlement.expirationDate() == null || entitlement.expirationDate().isAfter(now);
                Integer value = entitlement.value() == null ? null : entitlement.value().integerValue();
                if (current && AKU_DIMENSION.equals(entitlement.dimension()) && value != null && value > 0) {
                    most = OptionalInt.of(Math.max(value, most.orElse(0)));
                }
            }
            next = page.nextToken();
        } while (next != null && !next.isEmpty());
        return most.isPresent() ? new Entitlement(most.getAsInt()) : Entitlement.PAY_AS_YOU_GO;
    }
}
