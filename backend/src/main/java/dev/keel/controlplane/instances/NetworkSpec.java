package dev.keel.controlplane.instances;

import java.util.List;

/** The customer's VPC and one subnet per zone the instance spans. */
public record NetworkSpec(String vpcId, List<Subnet> subnets) {

    public record Subnet(String availabilityZone, String subnetId) {
    }

    public int zones() {
        return subnets == null ? 0 : subnets.size();
    }
}
