package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Against a real LocalStack (KEEL_AWS_ENDPOINT): three tagged broker instances from a launch template carrying a
 * node spec → three local Kafka brokers forming one KRaft quorum → 1,000 records produced and consumed → one
 * instance terminated → its broker stops.
 */
class LocalRunnerIT {
    @TempDir
    Path state;
    @AutoClose
    final EmulatedBrokerInstances instances = new EmulatedBrokerInstances();

    @Test
    void runsOneLocalBrokerPerInstanceAndFollowsTerminations() throws Exception {
        UUID instanceId = UUID.randomUUID();
        String spec = EmulatedBrokerInstances.nodeSpec(instanceId, "local-it", "http://127.0.0.1:9/ingest", "");
        List<String> launched = instances.launch(instanceId, spec, 3);

        LocalRunner runner = instances.runLocally(state, instanceId);
        assertThat(runner.standInBanner()).startsWith("Apache Kafka 4.4.0 standing in for AutoMQ");
        runner.start();

        await("3 local brokers running", Duration.ofSeconds(60), () -> launched.stream()
                .allMatch(id -> runner.node(id).map(s -> "RUNNING".equals(s.state())).orElse(false)));
        await("address tags on the instances", Duration.ofSeconds(10), () -> launched.stream()
                .allMatch(id -> instances.addressTag(id) != null));
        List<String> addresses = launched.stream().map(instances::addressTag).sorted().toList();
        assertThat(addresses).allMatch(a -> a.startsWith("127.0.0.1:")).doesNotHaveDuplicates();
        JsonNode status = new ObjectMapper().readTree(state.resolve("status.json").toFile());
        assertThat(status.get("standIn").asText()).contains("standing in for AutoMQ");
        assertThat(status.at("/bootstrapServers/" + instanceId).size()).isEqualTo(3);
        String bootstrap = String.join(",", addresses);

        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
            admin.createTopics(List.of(new NewTopic("orders", 3, (short) 3))).all().get(30, TimeUnit.SECONDS);
        }
        Properties pp = new Properties();
        pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 1000; i++) {
                producer.send(new ProducerRecord<>("orders", "k" + i, "v" + i));
            }
            producer.flush();
        }
        int consumed = OrderRecords.consume(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), 1000);
        assertThat(consumed).isEqualTo(1000);
        mark("produced and consumed 1000 records");

        // The agent wrote a schema-shaped report with the stand-in named (no ingest token: kept locally).
        Path report = state.resolve(instanceId.toString()).resolve("node-0").resolve("last-report.json");
        await("a report from node 0", Duration.ofSeconds(10), () -> Files.exists(report));
        await("a report with JMX metrics from node 0", Duration.ofSeconds(15), () -> {
            try {
                JsonNode r = new ObjectMapper().readTree(report.toFile());
                return "UP".equals(r.at("/health/status").asText()) && r.at("/metrics/partitions").isInt()
                        && r.at("/metrics/bytesInPerSec").isNumber();
            } catch (java.io.IOException e) {
                return false;
            }
        });
        JsonNode rep = new ObjectMapper().readTree(report.toFile());
        mark("report: " + rep.get("health") + " " + rep.get("metrics"));
        assertThat(rep.at("/broker/kind").asText()).isEqualTo("STAND_IN");
        assertThat(rep.at("/broker/standIn").asText()).isEqualTo("Apache Kafka 4.4.0");

        String victim = launched.get(2);
        long agentPid = runner.node(victim).orElseThrow().agentPid();
        int victimPort = Integer.parseInt(instances.addressTag(victim).substring("127.0.0.1:".length()));
        instances.terminate(victim);
        await("the terminated instance's broker stopped", Duration.ofSeconds(45),
                () -> runner.node(victim).isEmpty() && !LocalRunner.reachable(victimPort)
                        && ProcessHandle.of(agentPid).map(h -> !h.isAlive()).orElse(true));
        assertThat(runner.status()).hasSize(2).allMatch(s -> "RUNNING".equals(s.state()));
        mark("victim stopped");
    }

    private static void mark(String what) {
        EmulatedBrokerInstances.mark("LocalRunnerIT", what);
    }

    private static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        EmulatedBrokerInstances.await("LocalRunnerIT", what, timeout, condition);
    }
}
