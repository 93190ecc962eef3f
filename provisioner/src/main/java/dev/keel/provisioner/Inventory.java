package dev.keel.provisioner;

import java.util.List;

/** What exists in the customer's account for an instance, as last observed. */
public record Inventory(String bootstrapServers, List<Broker> brokers, List<CloudResource> resources) {

    public static final Inventory EMPTY = new Inventory(null, List.of(), List.of());

    public record Broker(int nodeId, String availabilityZone, String address) {
    }

    public record CloudResource(String type, String id) {
    }
}
