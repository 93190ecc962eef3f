package dev.keel.controlplane.kafkaaccess;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/** A topic to create; {@code partitions} left out is 1, {@code replicationFactor} the brokers' default. */
record KafkaTopicCreation(String name, Integer partitions, @Nullable Integer replicationFactor, Map<String, String> configs) {
}
