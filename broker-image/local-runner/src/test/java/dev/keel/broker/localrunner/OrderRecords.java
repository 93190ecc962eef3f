package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The tests' records on topic {@code orders}: key {@code k<i>}, value {@code v<i>}. */
final class OrderRecords {
    static final String TOPIC = "orders";

    private OrderRecords() {
    }

    /**
     * Reads {@code orders} from the start in group {@code it} until {@code expected} records came or 30 s passed,
     * checking each; how many came.
     */
    static int consume(Map<String, Object> clientConfig, int expected) {
        Properties cp = new Properties();
        cp.putAll(clientConfig);
        cp.put(ConsumerConfig.GROUP_ID_CONFIG, "it");
        cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        int consumed = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.currentTimeMillis() + 30_000;
            while (consumed < expected && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    assertThat(r.value()).isEqualTo("v" + r.key().substring(1));
                    consumed++;
                }
            }
        }
        return consumed;
    }
}
