package dev.keel.controlplane.billing;

import java.net.URI;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.customers.BuyerResolver;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The seller's connection to AWS Marketplace: its own credentials (the default chain), the listing's product code. */
@Configuration
class MarketplaceConfig {

    /** The listing every buyer, entitlement and usage record belongs to. */
    record Listing(String productCode) {
    }

    @Bean
    Listing marketplaceListing(@Value("${keel.marketplace.product-code}") String productCode) {
        return new Listing(productCode);
    }

    @Bean
    MarketplaceClients marketplaceClients(@Value("${keel.marketplace.endpoint:}") String endpoint) {
        URI marketplace = endpoint.isBlank() ? null : URI.create(endpoint);
        return new MarketplaceClients(new MarketplaceClients.Endpoints(marketplace, null),
                MarketplaceClients.MARKETPLACE_REGION, DefaultCredentialsProvider.builder().build());
    }

    @Bean
    BuyerResolver buyerResolver(MarketplaceClients clients, Listing listing) {
        return new BuyerResolver(clients.metering(), listing.productCode());
    }
}
