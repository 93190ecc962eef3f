package dev.keel.controlplane.cloudaccounts;

import java.util.List;

import dev.keel.provisioner.AccountNetwork;

/** A cloud account's VPCs and their subnets in one region. */
record AccountNetworks(String region, List<AccountNetwork> vpcs) {
}
