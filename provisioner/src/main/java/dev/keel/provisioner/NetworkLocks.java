package dev.keel.provisioner;

import java.util.function.Function;

/**
 * One decision at a time about what the Keel instances of a VPC share there (Keel's S3 gateway endpoint). A driver's
 * step that looks at what they share and then changes it runs holding the VPC's lock (its account, region and VPC id),
 * from its first look to its last change, and decides on the target the lock hands it: the instance as the control
 * plane's records stand once the lock is held, with the subnets of the VPC's other instances not deleted, also of
 * those whose create has made nothing in the account yet ({@link ProvisioningTarget#otherInstancesSubnets()}). A lock
 * ends with its holder's process.
 */
public interface NetworkLocks {

    /** Runs {@code step} holding the lock of {@code target}'s VPC, waiting while another step holds it. */
    <T> T holding(ProvisioningTarget target, Function<ProvisioningTarget, T> step);

    /** The VPC whose lock a step on {@code target} holds, named across accounts and regions. */
    static String vpcOf(ProvisioningTarget target) {
        return target.account().awsAccountId() + "/" + target.region() + "/" + target.vpcId();
    }

    /**
     * Locks of this process alone, handing a step its target as given: for a driver that is the only one to change
     * its VPCs, with no records but its targets, as in the provisioner's own tests.
     */
    static NetworkLocks inThisProcess() {
        return new ProcessNetworkLocks();
    }
}
