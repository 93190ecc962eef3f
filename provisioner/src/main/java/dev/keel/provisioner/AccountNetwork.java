package dev.keel.provisioner;

import java.util.List;

/** A VPC of a customer account and its subnets: what an instance's network is chosen from. */
public record AccountNetwork(String vpcId, String name, String cidrBlock, boolean isDefault, List<Subnet> subnets) {

    public AccountNetwork {
        subnets = List.copyOf(subnets);
    }

    public record Subnet(String subnetId, String availabilityZone, String cidrBlock, String name) {
    }
}
