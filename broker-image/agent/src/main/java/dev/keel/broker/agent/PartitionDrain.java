package dev.keel.broker.agent;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves every partition replica off this broker when the control plane asks, before it terminates the machine on
 * scale-down: on AutoMQ a reassignment moves only metadata (the data is in S3), on the stand-in it copies the log.
 * The control plane cannot reach brokers, so it asks in its answer to a report and learns the progress from the
 * next reports. Partitions created while draining are moved too: the drain keeps watching until the machine goes.
 */
final class PartitionDrain implements Reporter.Drainable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionDrain.class);
    private static final long CHECK_EVERY_MS = 2_000;
    private static final int CALL_TIMEOUT_S = 30;

    private final int self;
    private final Supplier<Admin> admins;
    private volatile Report.Drain progress;
    private volatile List<Integer> drainTo = List.of();
    private Thread worker;

    PartitionDrain(int self, Supplier<Admin> admins) {
        this.self = self;
        this.admins = admins;
    }

    /** Starts draining, once; later requests are no-ops. */
    @Override
    public synchronized void request(List<Integer> to) {
        if (worker != null) {
            return;
        }
        drainTo = List.copyOf(to);
        LOG.info("the control plane asks to drain broker {}: moving its partitions to brokers {}", self,
                to.isEmpty() ? "that stay" : to);
        progress = new Report.Drain(Report.Drain.DRAINING, null, null);
        worker = new Thread(this::run, "partition-drain");
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public Report.Drain progress() {
        return progress;
    }

    private void run() {
        try (Admin admin = admins.get()) {
            while (!Thread.currentThread().isInterrupted()) {
                progress = check(admin);
                Thread.sleep(CHECK_EVERY_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Report.Drain check(Admin admin) throws InterruptedException {
        try {
            Set<String> topics = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                    .get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
            Map<TopicPartition, List<Integer>> hosted = hostedBy(self,
                    admin.describeTopics(topics).allTopicNames().get(CALL_TIMEOUT_S, TimeUnit.SECONDS).values());
            if (hosted.isEmpty()) {
                if (progress == null || !Report.Drain.DRAINED.equals(progress.status())) {
                    LOG.info("broker {} hosts no partition: drained", self);
                }
                return new Report.Drain(Report.Drain.DRAINED, 0, null);
            }
            Set<TopicPartition> moving = admin.listPartitionReassignments().reassignments()
                    .get(CALL_TIMEOUT_S, TimeUnit.SECONDS).keySet();
            List<Integer> others = admin.describeCluster().nodes().get(CALL_TIMEOUT_S, TimeUnit.SECONDS).stream()
                    .map(Node::id).filter(id -> id != self && (drainTo.isEmpty() || drainTo.contains(id)))
                    .sorted().toList();
            Map<TopicPartition, List<Integer>> toMove = hosted.entrySet().stream()
                    .filter(e -> !moving.contains(e.getKey()))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            Map<TopicPartition, List<Integer>> moves = Reassignments.awayFrom(self, toMove, others);
            if (!moves.isEmpty()) {
                LOG.info("moving {} partitions off broker {} to brokers {}", moves.size(), self, others);
                admin.alterPartitionReassignments(moves.entrySet().stream().collect(Collectors.toMap(
                        Map.Entry::getKey, e -> Optional.of(new NewPartitionReassignment(e.getValue())))))
                        .all().get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
            }
            return new Report.Drain(Report.Drain.DRAINING, hosted.size(), null);
        } catch (Reassignments.Impossible e) {
            LOG.error("cannot drain broker {}: {}", self, e.getMessage());
            return new Report.Drain(Report.Drain.FAILED, progress == null ? null : progress.partitionsRemaining(),
                    e.getMessage());
        } catch (ExecutionException | TimeoutException e) {
            // The cluster may be busy (a controller election, a broker restarting): keep trying, say why meanwhile.
            String why = (e instanceof ExecutionException ? e.getCause() : e).toString();
            LOG.warn("draining broker {}: {}", self, why);
            return new Report.Drain(Report.Drain.DRAINING, progress == null ? null : progress.partitionsRemaining(), why);
        }
    }

    static Map<TopicPartition, List<Integer>> hostedBy(int broker, Collection<TopicDescription> topics) {
        return topics.stream().flatMap(t -> t.partitions().stream()
                        .filter(p -> p.replicas().stream().anyMatch(n -> n.id() == broker))
                        .map(p -> Map.entry(new TopicPartition(t.name(), p.partition()), replicaIds(p))))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static List<Integer> replicaIds(TopicPartitionInfo partition) {
        return partition.replicas().stream().map(Node::id).toList();
    }

    @Override
    public synchronized void close() {
        if (worker != null) {
            worker.interrupt();
        }
    }
}
