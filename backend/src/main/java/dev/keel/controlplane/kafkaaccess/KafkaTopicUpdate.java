package dev.keel.controlplane.kafkaaccess;

import java.util.Map;

/** A merge patch of a topic: a higher partition count, configs to set (a value) or give back to the default (null). */
record KafkaTopicUpdate(Integer partitions, Map<String, String> configs) {
}
