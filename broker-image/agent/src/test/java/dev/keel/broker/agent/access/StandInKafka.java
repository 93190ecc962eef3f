package dev.keel.broker.agent.access;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * One Apache Kafka broker (the local runner's stand-in jars, combined broker and KRaft controller) in a JVM of its
 * own, secured the way a SASL_SSL instance's client side is, minus TLS: a {@code CLIENT} listener on SASL_PLAINTEXT
 * with SCRAM-SHA-512 only, the StandardAuthorizer with {@code allow.everyone.if.no.acl.found=false}, and an
 * {@code INTERNAL} PLAINTEXT listener whose (anonymous) principal is the super user the agent's Admin connects as —
 * as the brokers' certificate principal is on the real INTERNAL listener.
 */
final class StandInKafka implements AutoCloseable {
    private final Process process;
    private final int clientPort;
    private final int internalPort;
    private final Path log;

    private StandInKafka(Process process, int clientPort, int internalPort, Path log) {
        this.process = process;
        this.clientPort = clientPort;
        this.internalPort = internalPort;
        this.log = log;
    }

    static StandInKafka start(Path dir) throws IOException, InterruptedException {
        int client = freePort();
        int internal = freePort();
        int controller = freePort();
        Path config = dir.resolve("server.properties");
        Files.writeString(config, """
                process.roles=broker,controller
                node.id=0
                controller.quorum.voters=0@127.0.0.1:%3$d
                controller.listener.names=CONTROLLER
                listeners=CLIENT://127.0.0.1:%1$d,INTERNAL://127.0.0.1:%2$d,CONTROLLER://127.0.0.1:%3$d
                advertised.listeners=CLIENT://127.0.0.1:%1$d,INTERNAL://127.0.0.1:%2$d
                listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT
                inter.broker.listener.name=INTERNAL
                listener.name.client.sasl.enabled.mechanisms=SCRAM-SHA-512
                listener.name.client.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
                authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
                allow.everyone.if.no.acl.found=false
                super.users=User:ANONYMOUS
                log.dirs=%4$s
                num.partitions=1
                offsets.topic.replication.factor=1
                transaction.state.log.replication.factor=1
                transaction.state.log.min.isr=1
                share.coordinator.state.topic.replication.factor=1
                share.coordinator.state.topic.min.isr=1
                group.initial.rebalance.delay.ms=0
                """.formatted(client, internal, controller, dir.resolve("kafka-logs")));
        Path log = dir.resolve("broker.log");
        Process format = run(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString()), log.toFile());
        if (!format.waitFor(120, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IOException("formatting the stand-in broker's storage failed; see " + log);
        }
        StandInKafka kafka = new StandInKafka(run(List.of("kafka.Kafka", config.toString()), log.toFile()), client,
                internal, log);
        kafka.awaitReady(Duration.ofSeconds(90));
        return kafka;
    }

    /** The SCRAM listener clients use. */
    String clientBootstrap() {
        return "127.0.0.1:" + clientPort;
    }

    /** The listener whose principal is the super user. */
    String internalBootstrap() {
        return "127.0.0.1:" + internalPort;
    }

    /** An Admin client on the super user's listener, as the agent's. */
    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, internalBootstrap(),
                CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    private void awaitReady(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IOException("the stand-in broker exited; see " + log + ":\n" + tail());
            }
            try (Admin admin = admin()) {
                if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (Exception e) {
                Thread.sleep(500);
            }
        }
        throw new IOException("the stand-in broker did not start within " + timeout + "; see " + log + ":\n" + tail());
    }

    private String tail() throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static Process run(List<String> mainAndArgs, File log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m",
                "-cp", System.getProperty("java.class.path")));
        command.addAll(mainAndArgs);
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
