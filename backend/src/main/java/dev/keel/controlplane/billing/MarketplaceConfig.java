package dev.keel.controlplane.billing;

import java.net.URI;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.metering.UsageMeter;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;

/** The seller's connection to AWS Marketplace: its own credentials (the default chain), the listing's product code. */
@Configuration
class MarketplaceConfig {

    static final String METERING_INTERCEPTOR = "marketplace-metering";

    /** The listing every buyer, entitlement and usage record belongs to. */
    record Listing(String productCode) {
    }

    @Bean
    Listing marketplaceListing(@Value("${keel.marketplace.product-code}") String productCode) {
        return new Listing(productCode);
    }

    /** {@code meteringInterceptors}: beans qualified {@value #METERING_INTERCEPTOR} (tests put faults there). */
    @Bean
    MarketplaceClients marketplaceClients(@Value("${keel.marketplace.endpoint:}") String endpoint,
            @Qualifier(METERING_INTERCEPTOR) ObjectProvider<ExecutionInterceptor> meteringInterceptors) {
        URI marketplace = endpoint.isBlank() ? null : URI.create(endpoint);
        return new MarketplaceClients(new MarketplaceClients.Endpoints(marketplace, null),
                MarketplaceClients.MARKETPLACE_REGION, DefaultCredentialsProvider.builder().build(),
                meteringInterceptors.orderedStream().toList());
    }

    @Bean
    UsageMeter usageMeter(MarketplaceClients clients, Listing listing) {
        return new UsageMeter(clients.metering(), listing.productCode());
    }
}
