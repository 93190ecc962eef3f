package dev.keel.controlplane.instances;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Which brokers still wait for their instance's Kafka credentials. When a broker starts serving, every credential of
 * its instance is written again, so that it has them; until the access agent reports that delivery applied, the
 * broker would refuse the instance's users.
 */
public interface BrokerCredentials {

    /** Of each instance, the nodes whose brokers wait for a delivery of its credentials (none: an empty set). */
    Map<UUID, Set<Integer>> awaited(Collection<UUID> instanceIds);

    /** Told when a delivery of the instance's credentials is applied: brokers that waited for it take them now. */
    record Delivered(UUID instanceId) {
    }
}
