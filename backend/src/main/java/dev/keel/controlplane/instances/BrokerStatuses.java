package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What each broker's agent last reported, by node id (a broker that never reported is absent). The
 * address a broker advertises to clients wins over the one the provisioner observed: behind NAT, or
 * on a developer machine where the local runner plays EC2, only the broker knows where clients
 * reach it.
 */
public interface BrokerStatuses {

    /** Each instance's brokers, in one reading (an instance none of whose brokers reported maps to an empty map). */
    Map<UUID, Map<Integer, BrokerStatus>> of(Collection<UUID> instanceIds);

    default Map<Integer, BrokerStatus> of(UUID instanceId) {
        return of(List.of(instanceId)).get(instanceId);
    }

    /**
     * {@code address} is null once the reports are stale ({@code silent}); {@code problem} says what is wrong
     * ("process is down", "has not reported for 40 s") and is null for a healthy broker;
     * {@code drain} is null unless a scale-down asked the reporting machine to drain;
     * {@code machineId} is the reporting machine (an EC2 instance id), null when its agent did not say;
     * {@code servingSince} is when the broker first served clients from it, null while it has not.
     */
    record BrokerStatus(String address, Instant reportedAt, String problem, Drain drain, String machineId,
                        boolean silent, Instant servingSince) {
    }

    record Drain(String status, Integer partitionsRemaining) {
    }
}
