package dev.keel.provisioner;

import java.util.List;

/** What exists in the customer's account for an instance, as last observed. */
public record Inventory(String bootstrapServers, List<Broker> brokers, List<CloudResource> resources) {

    public static final Inventory EMPTY = new Inventory(null, List.of(), List.of());

    /** {@code machineId}: the machine the broker runs on (an EC2 instance id), which its agent reports as its own. */
    public record Broker(int nodeId, String availabilityZone, String address, String machineId) {
    }

    public record CloudResource(String type, String id) {
    }
}
