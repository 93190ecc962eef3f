package dev.keel.broker.agent;

/** Reads the broker's metrics and the KRaft leader it knows. */
public interface MetricsSource {
    record Sample(Report.Metrics metrics, Integer quorumLeaderId) {
    }

    Sample sample();

    static MetricsSource none() {
        return () -> new Sample(Report.Metrics.empty(), null);
    }
}
