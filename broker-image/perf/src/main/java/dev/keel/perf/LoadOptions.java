package dev.keel.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What load to put on which endpoint; every option has a default but {@code --bootstrap}. */
record LoadOptions(String bootstrap, String topic, int partitions, Integer replicationFactor, int messageSize,
                   double rate, Duration duration, int producers, int consumers, Duration reportInterval,
                   boolean json, boolean keepTopic, Path commandConfig) {

    static final String USAGE = """
            usage: perf --bootstrap host:port[,host:port…] [options]
              --topic NAME              topic to use (default keel-perf-<random>; created when missing)
              --partitions N            partitions of a created topic (default 6)
              --replication-factor N    replicas of a created topic (default min(3, brokers))
              --message-size BYTES      payload bytes per message (default 1024)
              --rate MSG_PER_S          target publish rate across producers (default 1000)
              --duration SECONDS        how long to publish (default 60)
              --producers N             producer clients (default 1)
              --consumers N             consumer clients in one group (default 1; 0 publishes only)
              --report-interval SECONDS figures printed every so often (default 10)
              --json                    end with one JSON line of the totals
              --keep-topic              keep a topic this run created (default: delete it)
              --command-config FILE     Kafka client properties every client adds (e.g. the client.properties
                                        the console shows: SASL_SSL, SCRAM-SHA-512, the instance's CA)
            """;

    /** Parses {@code args}; a bad one throws with the option named and what it accepts. */
    static LoadOptions parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            if (name.equals("json") || name.equals("keep-topic") || name.equals("help")) {
                flags.add(name);
            } else if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            } else {
                values.put(name, args[++i]);
            }
        }
        if (flags.contains("help")) {
            throw new IllegalArgumentException("");
        }
        String bootstrap = values.remove("bootstrap");
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new IllegalArgumentException("--bootstrap is required: the instance's bootstrap servers");
        }
        String topic = values.getOrDefault("topic", "keel-perf-" + UUID.randomUUID().toString().substring(0, 8));
        values.remove("topic");
        LoadOptions options = new LoadOptions(bootstrap, topic,
                integer(values, "partitions", 6, 1, 10_000),
                values.containsKey("replication-factor") ? integer(values, "replication-factor", 3, 1, 32) : null,
                integer(values, "message-size", 1024, 16, 10 * 1024 * 1024),
                number(values, "rate", 1000, 1, 10_000_000),
                Duration.ofSeconds(integer(values, "duration", 60, 1, 86_400)),
                integer(values, "producers", 1, 1, 64),
                integer(values, "consumers", 1, 0, 64),
                Duration.ofSeconds(integer(values, "report-interval", 10, 1, 3_600)),
                flags.contains("json"), flags.contains("keep-topic"),
                values.containsKey("command-config") ? Path.of(values.remove("command-config")) : null);
        values.keySet().forEach(name -> {
            throw new IllegalArgumentException("unknown option --" + name);
        });
        return options;
    }

    private static int integer(Map<String, String> values, String name, int fallback, int min, int max) {
        return (int) number(values, name, fallback, min, max, true);
    }

    private static double number(Map<String, String> values, String name, double fallback, double min, double max) {
        return number(values, name, fallback, min, max, false);
    }

    private static double number(Map<String, String> values, String name, double fallback, double min, double max,
                                 boolean whole) {
        String raw = values.remove(name);
        if (raw == null) {
            return fallback;
        }
        double value;
        try {
            value = whole ? Integer.parseInt(raw) : Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + name + " must be " + (whole ? "a whole number" : "a number")
                    + ", got '" + raw + "'");
        }
        if (value < min || value > max || Double.isNaN(value)) {
            throw new IllegalArgumentException("--" + name + " must be between " + format(min) + " and " + format(max)
                    + ", got " + raw);
        }
        return value;
    }

    private static String format(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
