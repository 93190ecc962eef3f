package dev.keel.controlplane.kafkaaccess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.keel.controlplane.shared.FieldError;

/**
 * Kafka's rules for topics (its {@code Topic.validate} and {@code LogConfig}), checked before a change is recorded,
 * so that the brokers refuse only what the API cannot know (the cluster's own limits).
 */
final class TopicRules {

    static final int MAX_NAME = 249;
    static final int MAX_PARTITIONS = 10_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** The values Kafka takes for a config, as the contract's {@code KafkaTopicConfigs} writes them, and in words. */
    private record Rule(Pattern accepts, String expected) {
    }

    private static final Rule LONG_FROM_MINUS_ONE = new Rule(Pattern.compile("-1|[0-9]{1,18}"),
            "a whole number, -1 or more (at most 18 digits)");
    private static final Rule LONG_FROM_ZERO = new Rule(Pattern.compile("[0-9]{1,18}"),
            "a whole number, 0 or more (at most 18 digits)");
    private static final Rule LONG_FROM_ONE = new Rule(Pattern.compile("[1-9][0-9]{0,17}"),
            "a whole number, 1 or more (at most 18 digits)");
    private static final Rule INT_FROM_ONE = new Rule(Pattern.compile("[1-9][0-9]{0,8}"),
            "a whole number from 1 to 999999999");

    private static final Map<String, Rule> CONFIGS = Map.ofEntries(
            Map.entry("cleanup.policy", oneOf("delete", "compact", "delete,compact", "compact,delete")),
            Map.entry("retention.ms", LONG_FROM_MINUS_ONE),
            Map.entry("retention.bytes", LONG_FROM_MINUS_ONE),
            Map.entry("max.message.bytes", INT_FROM_ONE),
            Map.entry("segment.bytes", new Rule(Pattern.compile("104857[6-9]|10485[89][0-9]|1048[6-9][0-9]{2}|1049[0-9]{3}"
                    + "|10[5-9][0-9]{4}|1[1-9][0-9]{5}|[2-9][0-9]{6}|[1-9][0-9]{7,8}"),
                    "a whole number from 1048576 to 999999999")),
            Map.entry("segment.ms", LONG_FROM_ONE),
            Map.entry("min.insync.replicas", INT_FROM_ONE),
            Map.entry("compression.type", oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
            Map.entry("message.timestamp.type", oneOf("CreateTime", "LogAppendTime")),
            Map.entry("delete.retention.ms", LONG_FROM_ZERO),
            Map.entry("min.compaction.lag.ms", LONG_FROM_ZERO),
            Map.entry("max.compaction.lag.ms", LONG_FROM_ONE));

    private TopicRules() {
    }

    /** The name on its own; a collision with another topic is checked against the instance's topics. */
    static List<FieldError> name(String name) {
        List<FieldError> errors = new ArrayList<>();
        if (name == null) {
            errors.add(new FieldError("name", "is required"));
        } else if (name.isEmpty() || name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            errors.add(new FieldError("name", "must be 1 to " + MAX_NAME + " characters of letters, digits, '.', '_' and '-'"));
        } else if (name.equals(".") || name.equals("..")) {
            errors.add(new FieldError("name", "cannot be '.' or '..'"));
        } else if (name.startsWith("__")) {
            errors.add(new FieldError("name", "cannot start with '__': Kafka keeps those names for its internal topics"));
        }
        return errors;
    }

    /**
     * Kafka refuses a topic whose name differs from another's only in '.' and '_' (both become '_' in metric
     * names), so they are compared with '.' taken as '_'.
     */
    static String collisionKey(String name) {
        return name.replace('.', '_');
    }

    static List<FieldError> partitions(Integer partitions) {
        if (partitions != null && (partitions < 1 || partitions > MAX_PARTITIONS)) {
            return List.of(new FieldError("partitions", "must be between 1 and " + MAX_PARTITIONS));
        }
        return List.of();
    }

    static List<FieldError> replicationFactor(Integer replicationFactor, int brokers) {
        if (replicationFactor != null && (replicationFactor < 1 || replicationFactor > brokers)) {
            return List.of(new FieldError("replicationFactor", "must be between 1 and the instance's " + brokers
                    + " brokers, or left out for the brokers' default"));
        }
        return List.of();
    }

    /** Configs to set; with {@code removable}, a null value (give back the override) is allowed too. */
    static List<FieldError> configs(Map<String, String> configs, boolean removable) {
        List<FieldError> errors = new ArrayList<>();
        if (configs == null) {
            return errors;
        }
        configs.forEach((key, value) -> {
            String field = "configs." + key;
            Rule rule = CONFIGS.get(key);
            if (rule == null) {
                errors.add(new FieldError(field, "is not a topic config Keel sets; it sets " + CONFIGS.keySet().stream().sorted().toList()));
            } else if (value == null) {
                if (!removable) {
                    errors.add(new FieldError(field, "must be a value: leave the config out for the brokers' default"));
                }
            } else if (!rule.accepts().matcher(value).matches()) {
                errors.add(new FieldError(field, "must be " + rule.expected()));
            }
        });
        return errors;
    }

    private static Rule oneOf(String... values) {
        return new Rule(Pattern.compile(String.join("|", Arrays.stream(values).map(Pattern::quote).toList())),
                "one of " + List.of(values));
    }
}
