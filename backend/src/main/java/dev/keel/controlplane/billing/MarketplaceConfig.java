package dev.keel.controlplane.billing;

import java.net.URI;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.customers.BuyerResolver;
import dev.keel.marketplace.entitlements.Entitlements;
import dev.keel.marketplace.metering.UsageMeter;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;

/** The seller's connection to AWS Marketplace: its own credentials (the default chain), the listing's product code. */
@Configuration
class MarketplaceConfig {

    static final String METERING_INTERCEPTOR = "marketplace-metering";
    /** An SQS queue URL on AWS names its region: {@code https://sqs.<region>.amazonaws.com/<account>/<name>}. */
    private static final Pattern AWS_QUEUE_HOST = Pattern.compile("sqs\\.([a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?");

    /** The listing every buyer, entitlement and usage record belongs to. */
    record Listing(String productCode) {
    }

    @Bean
    Listing marketplaceListing(@Value("${keel.marketplace.product-code}") String productCode) {
        return new Listing(productCode);
    }

    /**
     * Where the agreement-event queue is, from its URL: on AWS its region's SQS endpoint (no override), elsewhere
     * (LocalStack) the URL's own origin; {@code endpoint} null means AWS's.
     */
    record QueueLocation(URI endpoint, Region region) {

        static QueueLocation of(String queueUrl) {
            if (queueUrl.isBlank()) {
                return new QueueLocation(null, MarketplaceClients.MARKETPLACE_REGION);
            }
            URI queue = URI.create(queueUrl);
            Matcher aws = AWS_QUEUE_HOST.matcher(queue.getHost());
            return aws.matches() ? new QueueLocation(null, Region.of(aws.group(1)))
                    : new QueueLocation(URI.create(queue.getScheme() + "://" + queue.getRawAuthority()),
                            MarketplaceClients.MARKETPLACE_REGION);
        }
    }

    /** {@code meteringInterceptors}: beans qualified {@value #METERING_INTERCEPTOR} (tests put faults there). */
    @Bean
    MarketplaceClients marketplaceClients(@Value("${keel.marketplace.endpoint:}") String endpoint,
            @Value("${keel.marketplace.queue-url:}") String queueUrl,
            @Qualifier(METERING_INTERCEPTOR) ObjectProvider<ExecutionInterceptor> meteringInterceptors) {
        URI marketplace = endpoint.isBlank() ? null : URI.create(endpoint);
        QueueLocation queue = QueueLocation.of(queueUrl);
        return new MarketplaceClients(new MarketplaceClients.Endpoints(marketplace, queue.endpoint()), queue.region(),
                DefaultCredentialsProvider.builder().build(), meteringInterceptors.orderedStream().toList());
    }

    @Bean
    Entitlements marketplaceEntitlements(MarketplaceClients clients, Clock clock) {
        return new Entitlements(clients.entitlement(), clock);
    }

    @Bean
    BuyerResolver buyerResolver(MarketplaceClients clients, Listing listing) {
        return new BuyerResolver(clients.metering(), listing.productCode());
    }

    @Bean
    UsageMeter usageMeter(MarketplaceClients clients, Listing listing) {
        return new UsageMeter(clients.metering(), listing.productCode());
    }
}
