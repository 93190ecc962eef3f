package dev.keel.controlplane.support;

import java.time.Duration;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.fixtures.PlayedBrokerAgents;

/**
 * The broker agents of every instance of a database whose machines run in LocalStack, where no broker runs, played
 * against the real ingest API ({@link PlayedBrokerAgents}): every second, the brokers each instance's stored inventory
 * lists (with an address) are the machines whose agents report, signed with the instance's token under the secret the
 * agents were given; an instance deleted, or without brokers, has none.
 */
public final class PlayedAgents implements AutoCloseable {

    private final String databaseUrl;
    private final PlayedBrokerAgents agents;
    private volatile String controlPlane;
    private volatile String secret;

    /** Agents of instances recorded in {@code databaseUrl}, reporting to {@code backend} with tokens under {@code secret}. */
    public PlayedAgents(BackendProcess backend, String databaseUrl, String secret) {
        this(backend.url(), databaseUrl, secret);
    }

    /**
     * Agents of instances recorded in {@code databaseUrl}, reporting to the control plane at {@code controlPlane} (its
     * base URL: one backend, or a load balancer in front of several) with tokens under {@code secret}.
     */
    public PlayedAgents(String controlPlane, String databaseUrl, String secret) {
        this.databaseUrl = databaseUrl;
        this.controlPlane = controlPlane;
        this.secret = secret;
        this.agents = new PlayedBrokerAgents(() -> this.controlPlane, Duration.ofSeconds(1));
        agents.every(Duration.ofSeconds(1), () -> agents.follow(Database.inventories(databaseUrl),
                new InstanceTokens(this.secret)::of));
    }

    /** From now on the agents report to {@code backend} (a restarted control plane). */
    public void reportTo(BackendProcess backend) {
        controlPlane = backend.url();
    }

    /** From now on the agents sign with tokens under {@code value}. */
    public void secret(String value) {
        secret = value;
    }

    @Override
    public void close() {
        agents.close();
    }
}
