package dev.keel.controlplane.metrics;

import java.util.Map;

/**
 * What a broker agent sends every 10 s (schema: broker-image/agent/src/main/resources/report.schema.json):
 * the broker's address, its health checks, and the current value of each metric.
 */
record BrokerReport(String address, Health health, Map<String, Double> metrics) {

    record Health(Boolean processUp, Boolean listenerReachable, Boolean quorumKnown, String detail) {
    }
}
