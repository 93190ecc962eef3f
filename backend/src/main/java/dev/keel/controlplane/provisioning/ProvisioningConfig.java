package dev.keel.controlplane.provisioning;

import java.net.URI;
import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.aws.AwsEndpoints;
import dev.keel.provisioner.aws.AwsProvisionerSettings;
import dev.keel.provisioner.aws.AwsProvisioningDriver;

/**
 * Which driver operations use ({@code keel.provisioning.driver}): {@code aws} provisions in the
 * customer's account (real AWS, or LocalStack and the project's FSx emulator through endpoint
 * overrides); {@code no-cloud} touches nothing. Operations persist their step names, so switch
 * drivers only with no operation in flight.
 */
@Configuration
class ProvisioningConfig {

    @Bean
    @ConditionalOnProperty(name = "keel.provisioning.driver", havingValue = "aws")
    ProvisioningDriver awsProvisioningDriver(
            @Value("${keel.provisioning.aws.endpoint:}") String endpoint,
            @Value("${keel.provisioning.aws.fsx-endpoint:}") String fsxEndpoint,
            @Value("${keel.provisioning.aws.broker-image}") String brokerImage,
            @Value("${keel.provisioning.aws.ingest-url}") String ingestUrl,
            @Value("${keel.provisioning.aws.poll-interval:5s}") Duration pollInterval) {
        AwsEndpoints endpoints = endpoint.isBlank() ? AwsEndpoints.AWS : AwsEndpoints.all(URI.create(endpoint));
        if (!fsxEndpoint.isBlank()) {
            endpoints = endpoints.withFsx(URI.create(fsxEndpoint));
        }
        return new AwsProvisioningDriver(AwsProvisionerSettings.defaults()
                .withEndpoints(endpoints)
                .withDefaults(brokerImage, ingestUrl)
                .withWaits(pollInterval, Duration.ofMinutes(10))
                // Without an FSx endpoint next to an emulated AWS there is no FSx to sweep.
                .withSweepFsxForEveryWal(endpoint.isBlank() || !fsxEndpoint.isBlank()));
    }

    @Bean
    @ConditionalOnProperty(name = "keel.provisioning.driver", havingValue = "no-cloud", matchIfMissing = true)
    ProvisioningDriver noCloudProvisioningDriver(@Value("${keel.provisioning.no-cloud.step-delay:500ms}") Duration stepDelay) {
        return new NoCloudProvisioningDriver(stepDelay);
    }
}
