package dev.keel.provisioner;

import java.util.List;

/**
 * What exists in the customer's account for an instance, as last observed, and what its brokers boot ({@code boot}):
 * the images its create resolved and checked before accepting it, recorded with the instance so that its launch
 * template is made with exactly those, also by a step resumed after a crash (null: recorded by no create, as of an
 * instance created before creates recorded them).
 */
public record Inventory(String bootstrapServers, List<Broker> brokers, List<CloudResource> resources, BootImage boot) {

    public static final Inventory EMPTY = new Inventory(null, List.of(), List.of(), null);

    /** An instance with nothing yet in the cloud, whose brokers are to boot {@code boot}. */
    public static Inventory booting(BootImage boot) {
        return new Inventory(null, List.of(), List.of(), boot);
    }

    /** {@code machineId}: the machine the broker runs on (an EC2 instance id), which its agent reports as its own. */
    public record Broker(int nodeId, String availabilityZone, String address, String machineId) {
    }

    public record CloudResource(String type, String id) {
    }
}
