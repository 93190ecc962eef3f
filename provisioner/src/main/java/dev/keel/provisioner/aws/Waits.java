package dev.keel.provisioner.aws;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The patience of every wait, by the kind of resource awaited (the types of {@link ObservedState}), and a
 * {@code scale} applied to every first look and pause: 1 against AWS; in tests and benchmarks the same factor by which
 * the emulators shorten AWS's lifecycles, so a run makes the calls it would make against AWS.
 */
public record Waits(Map<String, Patience> patience, double scale) {

    public Waits {
        patience = Map.copyOf(patience);
    }

    /**
     * What AWS takes, roughly: instances run within a minute; an FSx for ONTAP Multi-AZ file system takes tens of
     * minutes to create, and as long to change its throughput or to delete; an SVM several minutes.
     */
    public static Waits aws() {
        Map<String, Patience> p = new LinkedHashMap<>();
        p.put(ObservedState.S3_GATEWAY_ENDPOINT, patience(1, 5, 300));
        p.put(ObservedState.S3_BUCKET, patience(1, 5, 300));
        p.put(ObservedState.IAM_ROLE, patience(1, 5, 300));
        p.put(ObservedState.SECURITY_GROUP, patience(1, 5, 300));
        p.put(ObservedState.LAUNCH_TEMPLATE, patience(1, 5, 300));
        p.put(ObservedState.EBS_VOLUME, patience(2, 10, 600));
        p.put(ObservedState.EC2_INSTANCE, patience(5, 15, 900));
        p.put(ObservedState.FSX_FILE_SYSTEM, patience(120, 300, 3 * 3600));
        p.put(ObservedState.FSX_SVM, patience(30, 120, 3600));
        p.put(ObservedState.FSX_VOLUME, patience(10, 60, 1800));
        return new Waits(p, 1);
    }

    public Patience of(String kind) {
        Patience found = patience.get(kind);
        if (found == null) {
            throw new IllegalArgumentException("No patience configured for " + kind + "; known: " + patience.keySet());
        }
        return found;
    }

    public Waits scaled(double value) {
        return new Waits(patience, value);
    }

    /** The same waits with another time limit for {@code kind}. */
    public Waits withLimit(String kind, Duration limit) {
        Map<String, Patience> changed = new LinkedHashMap<>(patience);
        Patience current = of(kind);
        changed.put(kind, new Patience(current.first(), current.cap(), limit));
        return new Waits(changed, scale);
    }

    private static Patience patience(long firstSeconds, long capSeconds, long limitSeconds) {
        return new Patience(Duration.ofSeconds(firstSeconds), Duration.ofSeconds(capSeconds),
                Duration.ofSeconds(limitSeconds));
    }
}
