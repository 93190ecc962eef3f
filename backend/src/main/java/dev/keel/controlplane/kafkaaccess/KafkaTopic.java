package dev.keel.controlplane.kafkaaccess;

import java.time.Instant;
import java.util.Map;

/** A topic as the API shows it: the agent's last sight of it with the change not yet applied, if any. */
record KafkaTopic(String name, Integer partitions, Integer replicationFactor, Map<String, String> configs,
                  Long retentionMs, Long sizeBytes, AccessStatus status, String statusMessage, Instant observedAt) {
}
