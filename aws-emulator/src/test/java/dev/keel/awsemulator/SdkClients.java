package dev.keel.awsemulator;

import java.net.URI;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.marketplaceentitlement.MarketplaceEntitlementClient;
import software.amazon.awssdk.services.marketplacemetering.MarketplaceMeteringClient;

/** The real AWS SDK clients, pointed at the emulator, failing fast (no retries). */
final class SdkClients {

    private static final StaticCredentialsProvider CREDENTIALS =
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    private SdkClients() {
    }

    static FSxClient fsx(URI endpoint) {
        return FSxClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(CREDENTIALS)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    static MarketplaceMeteringClient metering(URI endpoint) {
        return MarketplaceMeteringClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    static MarketplaceEntitlementClient entitlement(URI endpoint) {
        return MarketplaceEntitlementClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(CREDENTIALS)
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
    }

    /** Polls until the condition holds; fails after the timeout. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }
}
