package dev.keel.controlplane.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.billing.MarketplaceConfig.QueueLocation;
import software.amazon.awssdk.regions.Region;

class QueueLocationTest {

    @Test
    void aQueueOnAwsIsReachedThroughItsRegionsEndpoint() {
        assertThat(QueueLocation.of("https://sqs.us-east-1.amazonaws.com/111122223333/keel-agreement-events"))
                .isEqualTo(new QueueLocation(null, Region.US_EAST_1));
        assertThat(QueueLocation.of("https://sqs.eu-central-1.amazonaws.com/111122223333/keel-agreement-events"))
                .isEqualTo(new QueueLocation(null, Region.EU_CENTRAL_1));
    }

    @Test
    void aLocalQueueIsReachedAtItsUrlsOrigin() {
        assertThat(QueueLocation.of("http://127.0.0.1:4566/queue/us-east-1/000000000000/keel-agreement-events"))
                .isEqualTo(new QueueLocation(URI.create("http://127.0.0.1:4566"), Region.US_EAST_1));
    }

    @Test
    void noQueueIsAws() {
        assertThat(QueueLocation.of("")).isEqualTo(new QueueLocation(null, Region.US_EAST_1));
    }
}
