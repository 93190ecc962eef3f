package dev.keel.broker.agent.access;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an {@link AccessReconciler} pass every interval while this node's broker is the KRaft quorum leader, so that
 * one agent per instance reconciles (during a leader change two may: passes are idempotent). The leader is the one
 * the agent's metrics sample last saw; no leader known, no pass.
 */
public final class AccessSchedule implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AccessSchedule.class);

    private final int nodeId;
    private final Supplier<Integer> quorumLeaderId;
    private final AccessReconciler reconciler;
    private ScheduledExecutorService scheduler;
    private boolean leading;
    private String lastFailure;

    public AccessSchedule(int nodeId, Supplier<Integer> quorumLeaderId, AccessReconciler reconciler) {
        this.nodeId = nodeId;
        this.quorumLeaderId = quorumLeaderId;
        this.reconciler = reconciler;
    }

    public void start(Duration interval) {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "access-reconciler");
            t.setDaemon(true);
            return t;
        });
        // With a fixed delay a slow pass (an Admin call waiting for its timeout) postpones the next, never doubles it.
        scheduler.scheduleWithFixedDelay(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether this tick ran a pass. */
    boolean tick() {
        boolean leader = Objects.equals(quorumLeaderId.get(), nodeId);
        if (leader != leading) {
            LOG.info(leader ? "broker {} leads the KRaft quorum: reconciling users, ACLs and topics"
                    : "broker {} no longer leads the KRaft quorum: its leader reconciles access", nodeId);
            leading = leader;
        }
        if (!leader) {
            return false;
        }
        try {
            reconciler.pass();
            if (lastFailure != null) {
                LOG.info("access reconciled again");
            }
            lastFailure = null;
        } catch (IOException | RuntimeException e) {
            String failure = e.toString();
            if (!failure.equals(lastFailure)) {
                LOG.warn("access pass failed: {}", failure);
            }
            lastFailure = failure;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    @Override
    public void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
