package dev.keel.provisioner;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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

    /** How long a step that found its VPC's lock held waits before it tries again. */
    Duration RETRY_AFTER = Duration.ofSeconds(1);

    /**
     * Runs {@code step} holding the lock of {@code target}'s VPC. While another step holds it, this one waits as
     * {@code run}'s waits for the cloud do: in its thread while the run may still pause, then by ending the run
     * ({@link StepWaiting}) to try again at its next look, so a worker thread is not kept by a lock it does not hold.
     */
    default <T> T holding(ProvisioningTarget target, StepRun run, Function<ProvisioningTarget, T> step) {
        String what = "the lock of " + target.vpcId() + ", which a step of another instance of the VPC holds";
        Instant since = run.waitingSince(what);
        while (true) {
            Optional<T> done = whenFree(target, step);
            if (done.isPresent()) {
                return done.get();
            }
            Instant now = Instant.now();
            since = since == null ? now : since;
            run.pause(RETRY_AFTER, what, since, now);
        }
    }

    /**
     * Runs {@code step} (whose result is never null) holding the lock of {@code target}'s VPC if no other step holds
     * it; empty, having run nothing, if one does.
     */
    <T> Optional<T> whenFree(ProvisioningTarget target, Function<ProvisioningTarget, T> step);

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
