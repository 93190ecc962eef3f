package dev.keel.controlplane.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The broker metrics the control plane keeps, with how they combine: across brokers (rates and
 * counts add up, latencies take the worst broker) and over time (the same way, averaged or maxed).
 */
enum BrokerMetric {
    BYTES_IN("bytesInPerSec", "bytes/s", Combine.SUM),
    BYTES_OUT("bytesOutPerSec", "bytes/s", Combine.SUM),
    MESSAGES_IN("messagesInPerSec", "messages/s", Combine.SUM),
    PRODUCE_REQUESTS("produceRequestsPerSec", "requests/s", Combine.SUM),
    FETCH_REQUESTS("fetchRequestsPerSec", "requests/s", Combine.SUM),
    PARTITIONS("partitions", "partitions", Combine.SUM),
    UNDER_REPLICATED("underReplicatedPartitions", "partitions", Combine.SUM),
    OFFLINE("offlinePartitions", "partitions", Combine.MAX),
    PRODUCE_LATENCY_P50("produceLatencyP50Ms", "ms", Combine.MAX),
    PRODUCE_LATENCY_P99("produceLatencyP99Ms", "ms", Combine.MAX);

    enum Combine { SUM, MAX }

    final String wireName;
    final String unit;
    final Combine combine;

    BrokerMetric(String wireName, String unit, Combine combine) {
        this.wireName = wireName;
        this.unit = unit;
        this.combine = combine;
    }

    static Optional<BrokerMetric> byWireName(String name) {
        return Arrays.stream(values()).filter(m -> m.wireName.equals(name)).findFirst();
    }

    static List<String> wireNames(Combine combine) {
        return Arrays.stream(values()).filter(m -> m.combine == combine).map(m -> m.wireName).toList();
    }
}
