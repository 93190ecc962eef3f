package dev.keel.marketplace;

import java.net.URI;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The test stack's LocalStack (SQS) and AWS API emulator (Marketplace), as {@code scripts/stack} writes them. */
public final class TestStack {

    private TestStack() {
    }

    public static MarketplaceClients clients() {
        return new MarketplaceClients(new MarketplaceClients.Endpoints(required("KEEL_MARKETPLACE_ENDPOINT"),
                required("KEEL_AWS_ENDPOINT")), MarketplaceClients.MARKETPLACE_REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
    }

    public static URI required(String variable) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("These integration tests need the test stack: run `KEEL_STACK_PORT_OFFSET=<n> "
                    + "scripts/stack start --env test --without keycloak` and source .local/test/env (" + variable
                    + " is not set).");
        }
        return URI.create(value);
    }
}
