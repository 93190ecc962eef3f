package dev.keel.controlplane.kafkaaccess;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import dev.keel.controlplane.shared.FieldError;

/**
 * Kafka's rules for topics (its {@code Topic.validate} and {@code LogConfig}), checked before a change is recorded,
 * so that the brokers refuse only what the API cannot know (the cluster's own limits).
 */
final class TopicRules {

    static final int MAX_NAME = 249;
    static final int MAX_PARTITIONS = 10_000;
    static final int MAX_CONFIG_VALUE = 100;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");

    /** The configs the API sets, each with the values Kafka takes and what to say when a value is not one. */
    private record Rule(Predicate<String> accepts, String expected) {
    }

    private static final Map<String, Rule> CONFIGS = Map.ofEntries(
            Map.entry("cleanup.policy", oneOf("delete", "compact", "delete,compact", "compact,delete")),
            Map.entry("retention.ms", atLeast(-1)),
            Map.entry("retention.bytes", atLeast(-1)),
            Map.entry("max.message.bytes", intAtLeast(1)),
            Map.entry("segment.bytes", intAtLeast(1_048_576)),
            Map.entry("segment.ms", atLeast(1)),
            Map.entry("min.insync.replicas", intAtLeast(1)),
            Map.entry("compression.type", oneOf("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer")),
            Map.entry("message.timestamp.type", oneOf("CreateTime", "LogAppendTime")),
            Map.entry("delete.retention.ms", atLeast(0)),
            Map.entry("min.compaction.lag.ms", atLeast(0)),
            Map.entry("max.compaction.lag.ms", atLeast(1)));

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
            } else if (value.length() > MAX_CONFIG_VALUE || !rule.accepts().test(value)) {
                errors.add(new FieldError(field, "must be " + rule.expected()));
            }
        });
        return errors;
    }

    private static Rule oneOf(String... values) {
        Set<String> accepted = Set.of(values);
        return new Rule(accepted::contains, "one of " + List.of(values));
    }

    private static Rule atLeast(long minimum) {
        return new Rule(value -> parses(value, minimum, Long.MAX_VALUE), "a whole number, " + minimum + " or more");
    }

    private static Rule intAtLeast(long minimum) {
        return new Rule(value -> parses(value, minimum, Integer.MAX_VALUE), String.format(Locale.ROOT,
                "a whole number from %d to %d", minimum, Integer.MAX_VALUE));
    }

    private static boolean parses(String value, long minimum, long maximum) {
        if (!value.matches("-?[0-9]{1,19}")) {
            return false;
        }
        try {
            long number = Long.parseLong(value);
            return number >= minimum && number <= maximum;
        } catch (NumberFormatException tooLarge) {
            return false;
        }
    }
}
