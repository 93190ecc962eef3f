package dev.keel.controlplane.estimates;

import dev.keel.controlplane.instances.FsxSpec;
import dev.keel.controlplane.instances.WalSpec;
import dev.keel.provisioner.S3GatewayEndpointMode;

/**
 * A spec not yet created, priced for a workload (by default, the spec's full AKU capacity for 72 hours) under
 * {@code assumptions} (null ones: the defaults); {@code s3GatewayEndpoint} as a create's network says it (null: the
 * create's default).
 */
record EstimateRequest(String region, Integer zones, WalSpec wal, Integer aku, FsxSpec fsx,
                       S3GatewayEndpointMode s3GatewayEndpoint, Workload workload, EstimateAssumptions assumptions) {
}
