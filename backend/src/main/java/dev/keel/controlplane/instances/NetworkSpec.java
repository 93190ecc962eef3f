package dev.keel.controlplane.instances;

import java.util.List;
import java.util.Objects;

import dev.keel.provisioner.S3GatewayEndpointMode;

/**
 * The customer's VPC and one subnet per zone the instance spans, and what Keel does about the S3 gateway endpoint on
 * the subnets' route tables (null in a request: {@link #DEFAULT_S3_GATEWAY_ENDPOINT}).
 */
public record NetworkSpec(String vpcId, List<Subnet> subnets, S3GatewayEndpointMode s3GatewayEndpoint) {

    /** Gateway endpoints cost nothing, and without one the brokers' S3 traffic pays a NAT gateway by the GB. */
    public static final S3GatewayEndpointMode DEFAULT_S3_GATEWAY_ENDPOINT = S3GatewayEndpointMode.CREATE;

    public record Subnet(String availabilityZone, String subnetId) {
    }

    public int zones() {
        return subnets == null ? 0 : subnets.size();
    }

    /** This network with the default S3 gateway endpoint option when it names none. */
    NetworkSpec withDefaults() {
        return new NetworkSpec(vpcId, subnets, Objects.requireNonNullElse(s3GatewayEndpoint, DEFAULT_S3_GATEWAY_ENDPOINT));
    }
}
