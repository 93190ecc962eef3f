package dev.keel.controlplane.billing;

import java.time.Instant;
import java.util.UUID;

/**
 * A buyer AWS Marketplace sent us, resolved and waiting to be linked under its one-time reference; once linked,
 * {@code subscriptionId} and {@code linkedAt} say to what and when.
 */
record MarketplaceRegistration(UUID reference, String customerAwsAccountId, String licenseArn,
                               String customerIdentifier, String productCode, Instant expiresAt,
                               UUID subscriptionId, Instant linkedAt) {

    MarketplaceRegistration linked(UUID subscription, Instant at) {
        return new MarketplaceRegistration(reference, customerAwsAccountId, licenseArn, customerIdentifier,
                productCode, expiresAt, subscription, at);
    }
}
