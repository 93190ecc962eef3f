package dev.keel.marketplace;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A caller of its own that the test stack's AWS API emulator throttles as AWS does a caller over its request rate
 * ({@code POST /_emulator/throttles}): the throttle is keyed by the access key its clients sign with, so no other
 * test's calls are throttled.
 */
public final class EmulatorThrottles {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final URI emulator;
    private final String accessKeyId = "throttled-" + UUID.randomUUID();

    public EmulatorThrottles(URI emulator) {
        this.emulator = emulator;
    }

    /** The caller's next {@code calls} calls of {@code operation} are answered ThrottlingException; 0 disarms. */
    public void throttle(String operation, int calls) throws Exception {
        String body = "{\"accessKeyId\": \"%s\", \"operation\": \"%s\", \"calls\": %d}".formatted(accessKeyId, operation, calls);
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(emulator.resolve("/_emulator/throttles"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    }

    /** The caller's clients, with the SDK's default retries, as production builds them. */
    public MarketplaceClients clients(ExecutionInterceptor... meteringInterceptors) {
        return new MarketplaceClients(new MarketplaceClients.Endpoints(emulator, null), MarketplaceClients.MARKETPLACE_REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, "test")), List.of(meteringInterceptors));
    }
}
