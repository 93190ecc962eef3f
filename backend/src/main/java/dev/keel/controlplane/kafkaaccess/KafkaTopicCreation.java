package dev.keel.controlplane.kafkaaccess;

import java.util.Map;

/** A topic to create; {@code partitions} left out is 1, {@code replicationFactor} the brokers' default. */
record KafkaTopicCreation(String name, Integer partitions, Integer replicationFactor, Map<String, String> configs) {
}
