package dev.keel.controlplane.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Optional;
import java.util.function.Function;

import dev.keel.controlplane.support.CustomerAccount;

/**
 * Looks at the customer's account every few seconds, with its own clients, for anything made twice: a node with more
 * than one machine or WAL volume, an instance with more file systems than its spec or more than its two buckets, more
 * than one S3 gateway endpoint of Keel's in the VPC. Each duplicate is kept once, with when it was first seen. Only the
 * instances of this run count: the account may hold what an earlier run that failed left.
 */
final class DuplicateWatch implements AutoCloseable {

    private static final int BUCKETS = 2;

    private final CustomerAccount customer;
    private final Function<String, Optional<Workload.Kind>> created;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, String> duplicates = new ConcurrentHashMap<>();
    private final AtomicInteger samples = new AtomicInteger();
    private final AtomicInteger failedSamples = new AtomicInteger();

    /** {@code created}: the kind of each instance (by id) this run created; empty for any other. */
    DuplicateWatch(CustomerAccount customer, Function<String, Optional<Workload.Kind>> created, Duration every) {
        this.customer = customer;
        this.created = created;
        timer.scheduleWithFixedDelay(this::sample, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The duplicates seen, by kind, instance and node, with when each was first seen and how many there were. */
    Map<String, String> duplicates() {
        return new TreeMap<>(duplicates);
    }

    /** Duplicates of {@code kind} (e.g. "EC2 per node"). */
    long count(String kind) {
        return duplicates.keySet().stream().filter(key -> key.startsWith(kind + " ")).count();
    }

    int samples() {
        return samples.get();
    }

    int failedSamples() {
        return failedSamples.get();
    }

    private void sample() {
        CustomerAccount.Census census;
        try {
            census = customer.census();
        } catch (RuntimeException e) {
            failedSamples.incrementAndGet();
            return;
        }
        samples.incrementAndGet();
        perNode("EC2 per node", census.machinesPerNode());
        perNode("volumes", census.volumesPerNode());
        census.fileSystems().forEach((instance, count) -> created.apply(instance).ifPresent(kind -> {
            if (count > kind.fileSystems()) {
                seen("file systems " + instance, count);
            }
        }));
        census.buckets().forEach((instance, count) -> {
            if (count > BUCKETS && created.apply(instance).isPresent()) {
                seen("buckets " + instance, count);
            }
        });
        if (census.keelS3Endpoints() > 1) {
            seen("S3 gateway endpoints in the VPC", census.keelS3Endpoints());
        }
    }

    private void perNode(String kind, Map<String, Map<Integer, Integer>> counts) {
        counts.forEach((instance, nodes) -> nodes.forEach((node, count) -> {
            if (count > 1 && created.apply(instance).isPresent()) {
                seen(kind + " " + instance + " node " + node, count);
            }
        }));
    }

    private void seen(String what, int count) {
        duplicates.putIfAbsent(what, count + " at " + Instant.now());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
