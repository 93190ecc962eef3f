package dev.keel.provisioner;

import java.util.List;

/**
 * A path the brokers need out of their subnets that a route table lacks: {@code path} is what is missing,
 * {@code routeTableId} the route table (the subnets' own, or the VPC's main one), {@code subnetIds} the instance's
 * subnets it serves, and {@code message} says so and what to do about it.
 */
public record NetworkPathGap(Path path, String routeTableId, List<String> subnetIds, String message) {

    public NetworkPathGap {
        subnetIds = List.copyOf(subnetIds);
    }

    public enum Path {
        /** No S3 gateway endpoint, where the spec requires the customer's. */
        S3_GATEWAY_ENDPOINT,
        /** Neither a default route nor a private endpoint of the EC2 API, which the brokers' agent calls. */
        EC2_API
    }
}
