package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.apache.kafka.metadata.authorizer.StandardAuthorizer;

import kafka.server.KafkaConfig;

/**
 * The agent's golden broker configs, read by Apache Kafka's own broker config (4.4.0, the stand-in's jars): each is a
 * valid KRaft broker config, and every key that is not AutoMQ's own is one Kafka defines, alone or under a listener
 * prefix ({@code listener.name.<listener>.[<sasl mechanism>.]<key>}). The security keys are the same in Kafka 3.9,
 * AutoMQ 1.x's base.
 */
class RenderedConfigKafkaTest {
    private static final Path GOLDEN = Path.of("../agent/src/test/resources/golden");
    private static final Pattern LISTENER_PREFIXED =
            Pattern.compile("listener\\.name\\.(client|internal|controller)\\.(scram-sha-512\\.)?(.+)");
    /**
     * AutoMQ's own keys (AutoMQConfig, the self-balancer; {@code cluster.id}, with which AutoMQ formats its storage on
     * first start): Kafka does not know them.
     */
    private static final List<String> AUTOMQ = List.of("elasticstream.", "s3.", "autobalancer.", "cluster.id");
    /** The authorizer's own keys, which StandardAuthorizer reads rather than KafkaConfig. */
    private static final Set<String> AUTHORIZER = Set.of(StandardAuthorizer.SUPER_USERS_CONFIG,
            StandardAuthorizer.ALLOW_EVERYONE_IF_NO_ACL_IS_FOUND_CONFIG);

    static Stream<Path> goldenFiles() throws IOException {
        try (Stream<Path> files = Files.list(GOLDEN)) {
            return files.filter(f -> f.toString().endsWith(".properties")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void kafkaAcceptsTheRenderedConfig(Path golden) throws IOException {
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(golden)) {
            props.load(in);
        }
        KafkaConfig config = KafkaConfig.fromProps(props, false);
        Set<String> known = KafkaConfig.configDef().names();
        for (String key : props.stringPropertyNames()) {
            if (AUTOMQ.stream().anyMatch(key::startsWith) || AUTHORIZER.contains(key)) {
                continue;
            }
            Matcher prefixed = LISTENER_PREFIXED.matcher(key);
            assertThat(known).as(golden.getFileName() + ": " + key)
                    .contains(prefixed.matches() ? prefixed.group(3) : key);
        }
        if (golden.getFileName().toString().startsWith("sasl-ssl-")) {
            assertThat(config.interBrokerListenerName().value()).isEqualTo("INTERNAL");
            assertThat(config.effectiveListenerSecurityProtocolMap().values().stream().map(Enum::name))
                    .containsOnly("SASL_SSL", "SSL");
        }
    }
}
