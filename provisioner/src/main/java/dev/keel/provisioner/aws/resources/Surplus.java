package dev.keel.provisioner.aws.resources;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.ObservedState;

/** What exists of a type but is not wanted, as deletes in the order they are to happen. */
final class Surplus {

    private Surplus() {
    }

    static List<ResourceChange> of(ObservedState observed, String type, Collection<String> wanted,
                                   Comparator<ObservedState.Resource> order, String reason) {
        return observed.ofType(type).stream().filter(r -> !wanted.contains(r.logicalName())).sorted(order)
                .map(r -> new ResourceChange(Action.DELETE, type, r.logicalName(), r.id(), reason)).toList();
    }
}
