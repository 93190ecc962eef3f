package dev.keel.controlplane.support;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.metrics.AgentReports;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The broker agents of instances whose machines run in LocalStack, where no broker runs: every second, each broker
 * the instance's stored inventory lists reports healthy from its machine to the real ingest API, signed with the
 * instance's token under the secret the agents were given. The control plane's side of the protocol is what is under
 * test; the agent's own tests run it against real brokers. A broker told to drain has no partitions to move and
 * reports itself drained at once.
 */
public final class PlayedAgents implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final String databaseUrl;
    private final Set<UUID> instances = ConcurrentHashMap.newKeySet();
    private final Set<String> drained = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
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
        timer.scheduleWithFixedDelay(this::reportAll, 0, 1, TimeUnit.SECONDS);
    }

    /** Starts playing the agents of {@code instanceId}'s brokers. */
    public void play(UUID instanceId) {
        instances.add(instanceId);
    }

    /** From now on the agents report to {@code backend} (a restarted control plane). */
    public void reportTo(BackendProcess backend) {
        controlPlane = backend.url();
    }

    /** From now on the agents sign with tokens under {@code value}. */
    public void secret(String value) {
        secret = value;
    }

    /** Reports the control plane answered with 2xx, and with 401 or 403, so far. */
    public int accepted() {
        return accepted.get();
    }

    public int refused() {
        return refused.get();
    }

    private void reportAll() {
        for (UUID instanceId : instances) {
            try {
                report(instanceId);
            } catch (RuntimeException e) {
                // A backend restarting, or an instance being deleted: the next second tries again.
            }
        }
    }

    private void report(UUID instanceId) {
        JsonNode inventory = JsonMapper.shared().readTree(Database.inventory(databaseUrl, instanceId));
        AgentReports reports = new AgentReports(controlPlane, instanceId);
        for (JsonNode broker : inventory.path("brokers")) {
            String address = broker.path("address").asString("");
            String machine = broker.get("machineId").asString();
            Map<String, Object> report = AgentReports.report(instanceId, broker.get("nodeId").asInt(), machine,
                    address.substring(0, Math.max(0, address.lastIndexOf(':'))), true, Map.of());
            if (drained.contains(machine)) {
                report = AgentReports.draining(report, "DRAINED", 0, null);
            }
            ApiClient.Response answer = reports.send(broker.get("nodeId").asInt(),
                    new InstanceTokens(secret).of(instanceId), report);
            if (answer.status() < 300) {
                accepted.incrementAndGet();
                if (answer.json().path("drain").asBoolean(false)) {
                    drained.add(machine);
                }
            } else if (answer.status() == 401 || answer.status() == 403) {
                refused.incrementAndGet();
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
