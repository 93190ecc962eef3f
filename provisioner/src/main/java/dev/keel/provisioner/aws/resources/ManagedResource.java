package dev.keel.provisioner.aws.resources;

import java.util.List;
import java.util.UUID;

import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;

/**
 * One kind of cloud resource an instance has. The driver walks an ordered list of them, which also says what types
 * of {@link ObservedState} each owns and reads: a step observes one resource, together with what it reads of the
 * resources before it, asks it how that differs from the desired state, and has it apply exactly that difference. A
 * plan is the same differences, concatenated, so a plan and an apply cannot disagree. Resources never call one
 * another.
 */
public interface ManagedResource {

    /** What of it exists for the instance, found by tags and deterministic names. Reads only. */
    List<ObservedState.Resource> observe(AwsClients.Customer aws, UUID instanceId);

    /** How {@code observed} differs from {@code desired}: creates, updates, replacements, and deletes of surplus. Pure. */
    List<ResourceChange> diff(DesiredState desired, ObservedState observed);

    /**
     * Carries out the creates, updates and replacements of its own diff, then waits until everything the desired
     * state has of it is ready (also when there was nothing to change: an earlier attempt may have left it on its way).
     */
    void apply(List<ResourceChange> changes, StepContext ctx);

    /**
     * What deleting the instance does to {@code delete}'s resource: deletes it, unless the resource keeps it for a
     * while (a retained data bucket), which it then says as another change. Pure.
     */
    default ResourceChange deleting(DesiredState desired, ResourceChange delete) {
        return delete;
    }

    /**
     * Deletes what {@code deletes} name (surplus, or everything of an instance being deleted) and waits until it is
     * gone; carries out what {@link #deleting} said instead of a delete.
     */
    void remove(List<ResourceChange> deletes, StepContext ctx);
}
