package dev.keel.marketplace;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.keel.marketplace.customers.LicenseArnFromWire;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.marketplaceentitlement.MarketplaceEntitlementClient;
import software.amazon.awssdk.services.marketplacemetering.MarketplaceMeteringClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import dev.keel.marketplace.metering.LicenseArns;

/**
 * The SDK clients the seller's own account calls Marketplace with. SaaS metering and entitlements are served from
 * us-east-1 whatever region the buyer runs in; the agreement-event queue lives where the seller created it.
 * Endpoint overrides point them at the AWS API emulator (Marketplace) and LocalStack (SQS) on our machines.
 */
public final class MarketplaceClients implements AutoCloseable {

    /** Where AWS Marketplace serves SaaS products' metering and entitlement APIs. */
    public static final Region MARKETPLACE_REGION = Region.US_EAST_1;

    /** {@code null} endpoints mean real AWS. */
    public record Endpoints(URI marketplace, URI sqs) {

        public static final Endpoints AWS = new Endpoints(null, null);
    }

    private final SdkHttpClient http;
    private final MarketplaceMeteringClient metering;
    private final MarketplaceEntitlementClient entitlement;
    private final SqsClient sqs;

    public MarketplaceClients(Endpoints endpoints, Region queueRegion, AwsCredentialsProvider credentials) {
        this(endpoints, queueRegion, credentials, List.of());
    }

    /** {@code meteringInterceptors} see every metering call after the licence is in it (tests put faults there). */
    public MarketplaceClients(Endpoints endpoints, Region queueRegion, AwsCredentialsProvider credentials,
                              List<ExecutionInterceptor> meteringInterceptors) {
        this.http = ApacheHttpClient.builder().maxConnections(16).connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(30)).build();
        List<ExecutionInterceptor> metered = new ArrayList<>();
        metered.add(new LicenseArnFromWire());
        metered.add(new LicenseArns());
        metered.addAll(meteringInterceptors);
        this.metering = configure(MarketplaceMeteringClient.builder(), endpoints.marketplace(), MARKETPLACE_REGION,
                credentials).overrideConfiguration(o -> o.executionInterceptors(metered)).build();
        this.entitlement = configure(MarketplaceEntitlementClient.builder(), endpoints.marketplace(),
                MARKETPLACE_REGION, credentials).build();
        this.sqs = configure(SqsClient.builder(), endpoints.sqs(), queueRegion, credentials).build();
    }

    public MarketplaceMeteringClient metering() {
        return metering;
    }

    public MarketplaceEntitlementClient entitlement() {
        return entitlement;
    }

    public SqsClient sqs() {
        return sqs;
    }

    private <B extends AwsClientBuilder<B, ?>> B configure(B builder, URI endpoint, Region region,
                                                           AwsCredentialsProvider credentials) {
        Optional.ofNullable(endpoint).ifPresent(builder::endpointOverride);
        builder.region(region).credentialsProvider(credentials);
        if (builder instanceof SdkSyncClientBuilder<?, ?> sync) {
            sync.httpClient(http);
        }
        return builder;
    }

    @Override
    public void close() {
        metering.close();
        entitlement.close();
        sqs.close();
        http.close();
    }
}
