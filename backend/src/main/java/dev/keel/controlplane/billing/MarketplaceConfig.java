package dev.keel.controlplane.billing;

import java.net.URI;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.entitlements.Entitlements;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** The seller's connection to AWS Marketplace: its own credentials (the default chain), the listing's product code. */
@Configuration
class MarketplaceConfig {

    /** An SQS queue URL on AWS names its region: {@code https://sqs.<region>.amazonaws.com/<account>/<name>}. */
    private static final Pattern AWS_QUEUE_HOST = Pattern.compile("sqs\\.([a-z0-9-]+)\\.amazonaws\\.com(\\.cn)?");

    /** The listing every buyer, entitlement and usage record belongs to. */
    record Listing(String productCode) {
    }

    @Bean
    Listing marketplaceListing(@Value("${keel.marketplace.product-code}") String productCode) {
        return new Listing(productCode);
    }

    @Bean
    MarketplaceClients marketplaceClients(@Value("${keel.marketplace.endpoint:}") String endpoint,
                                          @Value("${keel.marketplace.queue-url:}") String queueUrl) {
        URI marketplace = endpoint.isBlank() ? null : URI.create(endpoint);
        // The queue's URL says where it is: AWS's SQS endpoint of its region, or (locally) LocalStack.
        URI queue = queueUrl.isBlank() ? null : URI.create(queueUrl);
        Matcher aws = queue == null ? null : AWS_QUEUE_HOST.matcher(queue.getHost());
        boolean onAws = aws != null && aws.matches();
        URI sqs = queue == null || onAws ? null : URI.create(queue.getScheme() + "://" + queue.getRawAuthority());
        Region queueRegion = onAws ? Region.of(aws.group(1)) : MarketplaceClients.MARKETPLACE_REGION;
        return new MarketplaceClients(new MarketplaceClients.Endpoints(marketplace, sqs), queueRegion,
                DefaultCredentialsProvider.builder().build());
    }

    @Bean
    Entitlements marketplaceEntitlements(MarketplaceClients clients, Clock clock) {
        return new Entitlements(clients.entitlement(), clock);
    }
}
