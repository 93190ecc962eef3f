package dev.keel.controlplane.instances;

import java.util.Map;
import java.util.UUID;

/**
 * The addresses brokers advertise to clients, as their agents last reported them (node id to
 * {@code host:port}). They win over the addresses the provisioner observed: behind NAT, or on a
 * developer machine where the local runner plays EC2, only the broker knows where clients reach it.
 */
public interface AdvertisedAddresses {

    Map<Integer, String> of(UUID instanceId);
}
