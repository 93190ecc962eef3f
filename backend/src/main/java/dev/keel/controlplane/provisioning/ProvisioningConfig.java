package dev.keel.controlplane.provisioning;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.aws.AwsEndpoints;
import dev.keel.provisioner.aws.AwsProvisionerSettings;
import dev.keel.provisioner.aws.AwsProvisioningDriver;
import dev.keel.provisioner.aws.Waits;
import dev.keel.provisioner.aws.FaultInjectionInterceptor;

/**
 * Which driver operations use ({@code keel.provisioning.driver}): {@code aws} provisions in the
 * customer's account (real AWS, or LocalStack and the project's FSx emulator through endpoint
 * overrides); {@code no-cloud} touches nothing. Operations persist their step names, so switch
 * drivers only with no operation in flight.
 * <p>
 * {@code keel.provisioning.aws.test-faults.*} makes a share of AWS calls fail transiently and chosen
 * operations fail as denied, for resilience tests; it is off unless set and logs loudly when on.
 */
@Configuration
class ProvisioningConfig {

    private static final Logger log = LoggerFactory.getLogger(ProvisioningConfig.class);

    @Bean
    @ConditionalOnProperty(name = "keel.provisioning.driver", havingValue = "aws")
    ProvisioningDriver awsProvisioningDriver(
            @Value("${keel.provisioning.aws.endpoint:}") String endpoint,
            @Value("${keel.provisioning.aws.fsx-endpoint:}") String fsxEndpoint,
            @Value("${keel.provisioning.aws.broker-images}") List<String> brokerImages,
            @Value("${keel.provisioning.aws.ingest-url}") String ingestUrl,
            @Value("${keel.provisioning.aws.wait-scale:1}") double waitScale,
            @Value("${keel.provisioning.aws.wait-limits:}") List<String> waitLimits,
            @Value("${keel.provisioning.aws.test-faults.transient-share:0}") double faultShare,
            @Value("${keel.provisioning.aws.test-faults.denied-operations:}") List<String> deniedOperations) {
        AwsEndpoints endpoints = endpoint.isBlank() ? AwsEndpoints.AWS : AwsEndpoints.all(URI.create(endpoint));
        if (!fsxEndpoint.isBlank()) {
            endpoints = endpoints.withFsx(URI.create(fsxEndpoint));
        }
        AwsProvisionerSettings settings = AwsProvisionerSettings.defaults()
                .withEndpoints(endpoints)
                .withDefaults(BrokerImages.parse(brokerImages), ingestUrl)
                .withWaits(WaitLimits.apply(Waits.aws(), waitLimits).scaled(waitScale))
                // Without an FSx endpoint next to an emulated AWS there is no FSx to sweep.
                .withSweepFsxForEveryWal(endpoint.isBlank() || !fsxEndpoint.isBlank());
        if (faultShare > 0 || !deniedOperations.isEmpty()) {
            log.warn("TEST FAULT INJECTION IS ON: {} of AWS calls fail transiently, always denied: {}", faultShare,
                    deniedOperations);
            settings = settings.withInterceptors(List.of(
                    new FaultInjectionInterceptor(faultShare, Set.copyOf(deniedOperations), System.nanoTime())));
        }
        return new AwsProvisioningDriver(settings);
    }

    @Bean
    @ConditionalOnProperty(name = "keel.provisioning.driver", havingValue = "no-cloud", matchIfMissing = true)
    ProvisioningDriver noCloudProvisioningDriver(@Value("${keel.provisioning.no-cloud.step-delay:500ms}") Duration stepDelay) {
        return new NoCloudProvisioningDriver(stepDelay);
    }
}
