package dev.keel.provisioner;

import java.util.List;

/**
 * The port through which operations change cloud resources. A driver names the steps of a change
 * up front (they are persisted and shown to users) and then applies them one at a time; applying a
 * step twice must leave the same result as applying it once.
 */
public interface ProvisioningDriver {

    /**
     * The name drivers give the step of an update that terminates the brokers beyond the spec's count. The control
     * plane drains those brokers in a step of its own just before it: the driver never reaches brokers.
     */
    String RETIRE_SURPLUS_BROKERS = "retire-surplus-brokers";

    /**
     * The name drivers give the step of a delete that terminates every broker: once it is done the instance serves
     * nothing, whatever becomes of the rest of the delete.
     */
    String TERMINATE_BROKERS = "terminate-brokers";

    List<String> steps(ChangeKind kind, ProvisioningTarget target);

    /**
     * Applies one step in {@code run} and returns the inventory observed afterwards. Throws {@link StepWaiting} when
     * the step waits for the cloud longer than the run may pause (it is to be applied again at the next look), and
     * {@link StaleStep} when the run lost the step before a change to the cloud.
     */
    Inventory apply(String step, ProvisioningTarget target, StepRun run);

    /** Applies one step to its end, waiting in the calling thread: for tools and tests that drive a driver directly. */
    default Inventory apply(String step, ProvisioningTarget target) {
        return apply(step, target, StepRun.INLINE);
    }

    /**
     * The resource changes applying {@code kind} would make, like {@code terraform plan}, changing
     * nothing. With {@code observe} the driver reads what exists; without it, it assumes nothing
     * exists yet (a spec not created), and touches no cloud at all.
     */
    List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, boolean observe);

    /**
     * Deletes the data a delete of the instance kept (its data bucket, emptied first) once its retention is over.
     * Applying it again, or to data already gone, changes nothing.
     */
    void deleteRetainedData(ProvisioningTarget target);

    /**
     * Whether the driver can work in {@code account}: assumes its role afresh (never from a cache)
     * and checks that it allows every action the driver calls, changing nothing.
     */
    AccountVerification verify(ProvisioningTarget.Account account, String region);

    /**
     * What brokers of {@code brokerVersion} would boot in {@code region} of {@code account}, resolved now through
     * its role, changing nothing; a {@link ProvisioningException} where they could not boot (no machine image in the
     * region, no broker image for the version), before anything is created.
     */
    BootImage bootImage(ProvisioningTarget.Account account, String region, String brokerVersion);

    /**
     * What the route tables of {@code target}'s subnets lack of the paths its brokers need (the EC2 API; S3 through
     * the customer's gateway endpoint when the spec requires one), read now through its role, changing nothing: a
     * create is refused on them before anything is created. Empty when nothing is lacking, and for a spec that
     * leaves the VPC's routing alone, which is not read then.
     */
    List<NetworkPathGap> networkPathGaps(ProvisioningTarget target);

    /** The VPCs of {@code account} in {@code region} with their subnets, read through its role. */
    List<AccountNetwork> networks(ProvisioningTarget.Account account, String region);
}
