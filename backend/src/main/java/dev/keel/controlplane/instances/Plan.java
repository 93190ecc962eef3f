package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.List;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.ResourceChange;

/**
 * The cloud resources an operation would create, update, replace or delete, changing nothing; for a delete that keeps
 * the instance's data, until when it is kept ({@code dataRetainedUntil}, else null).
 */
record Plan(String kind, List<Change> changes, Summary summary, Instant dataRetainedUntil) {

    record Change(String action, String resourceType, String name, String id, String reason) {
    }

    record Summary(int create, int update, int replace, int delete) {
    }

    static Plan of(ChangeKind kind, List<ResourceChange> changes) {
        return of(kind, changes, null);
    }

    static Plan of(ChangeKind kind, List<ResourceChange> changes, Instant dataRetainedUntil) {
        return new Plan(kind.name(), changes.stream()
                .map(c -> new Change(c.action().name(), c.type(), c.logicalName(), c.id(), c.reason()))
                .toList(),
                new Summary(count(changes, ResourceChange.Action.CREATE), count(changes, ResourceChange.Action.UPDATE),
                        count(changes, ResourceChange.Action.REPLACE), count(changes, ResourceChange.Action.DELETE)),
                dataRetainedUntil);
    }

    private static int count(List<ResourceChange> changes, ResourceChange.Action action) {
        return (int) changes.stream().filter(c -> c.action() == action).count();
    }
}
