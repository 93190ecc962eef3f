package dev.keel.controlplane.provisioning;

import java.net.URI;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.aws.AwsEndpoints;
import dev.keel.provisioner.aws.AwsProvisionerSettings;
import dev.keel.provisioner.aws.AwsProvisioningDriver;
import dev.keel.provisioner.aws.Waits;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The driver operations use ({@code keel.provisioning.driver}, {@code aws} unless configured otherwise): it provisions
 * in the customer's account (real AWS, or LocalStack and the project's FSx emulator through endpoint overrides).
 * Operations persist their step names, so switch drivers only with no operation in flight. SDK interceptors found
 * in the context go onto every AWS client (tests install theirs so). Its steps on what a VPC's instances share take
 * the VPC's lock held across every backend process.
 */
@Configuration
class ProvisioningConfig {

    @Bean
    @ConditionalOnProperty(name = "keel.provisioning.driver", havingValue = "aws")
    ProvisioningDriver awsProvisioningDriver(
            @Value("${keel.provisioning.aws.endpoint:}") String endpoint,
            @Value("${keel.provisioning.aws.fsx-endpoint:}") String fsxEndpoint,
            @Value("${keel.provisioning.aws.broker-repository:}") String brokerRepository,
            @Value("${keel.provisioning.aws.development-broker-image:}") String developmentBrokerImage,
            @Value("${keel.provisioning.aws.ingest-url}") String ingestUrl,
            @Value("${keel.provisioning.aws.wait-scale:1}") double waitScale,
            @Value("${keel.provisioning.aws.wait-limits:}") List<String> waitLimits,
            ObjectProvider<ExecutionInterceptor> interceptors, SizingCatalogs catalogs, NetworkLocks networkLocks) {
        AwsEndpoints endpoints = endpoint.isBlank() ? AwsEndpoints.AWS : AwsEndpoints.all(URI.create(endpoint));
        if (!fsxEndpoint.isBlank()) {
            endpoints = endpoints.withFsx(URI.create(fsxEndpoint));
        }
        return new AwsProvisioningDriver(AwsProvisionerSettings.defaults()
                .withEndpoints(endpoints)
                .withDefaults(BrokerImages.of(catalogs.brokerVersions(), brokerRepository, developmentBrokerImage),
                        ingestUrl)
                .withWaits(WaitLimits.apply(Waits.aws(), waitLimits).scaled(waitScale))
                .withInterceptors(interceptors.orderedStream().toList())
                // Without an FSx endpoint next to an emulated AWS there is no FSx to sweep.
                .withSweepFsxForEveryWal(endpoint.isBlank() || !fsxEndpoint.isBlank()), networkLocks);
    }
}
