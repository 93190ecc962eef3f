package dev.keel.perf;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One load run, shaped like an OpenMessaging Benchmark workload: consumers join first, producers
 * then publish at the target rate for the duration (each message carries its send time, so
 * consumers measure end-to-end latency), consumers drain what is left, and the figures are
 * printed every report interval and in total.
 */
final class LoadRun {

    private static final String SENT_AT = "keel-perf-sent-at";
    private static final Duration DRAIN = Duration.ofSeconds(30);

    private final LoadOptions options;
    private final PrintStream out;
    private final LongAdder published = new LongAdder();
    private final LongAdder consumed = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LatencyStats publishLatency = new LatencyStats();
    private final LatencyStats endToEndLatency = new LatencyStats();
    private final AtomicBoolean publishing = new AtomicBoolean(true);
    private final AtomicBoolean consuming = new AtomicBoolean(true);
    private volatile String firstError;
    private final Properties clientConfig;

    LoadRun(LoadOptions options, PrintStream out) throws IOException {
        this.options = options;
        this.out = out;
        this.clientConfig = new Properties();
        if (options.commandConfig() != null) {
            try (Reader in = Files.newBufferedReader(options.commandConfig())) {
                clientConfig.load(in);
            }
        }
        clientConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.bootstrap());
    }

    /** A fresh copy of what every client is configured with: the command config and the bootstrap servers. */
    private Properties clientProperties() {
        Properties props = new Properties();
        props.putAll(clientConfig);
        return props;
    }

    /** Runs the load; true when every message was acknowledged and (with consumers) read back. */
    boolean run() throws Exception {
        try (Admin admin = Admin.create(clientProperties())) {
            boolean created = ensureTopic(admin);
            List<Thread> consumers = startConsumers();
            long started = System.nanoTime();
            List<Thread> producers = startProducers();
            report(started);
            publishing.set(false);
            for (Thread producer : producers) {
                producer.join();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            long deadline = System.nanoTime() + DRAIN.toNanos();
            while (!consumers.isEmpty() && consumed.sum() < published.sum() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            consuming.set(false);
            for (Thread consumer : consumers) {
                consumer.join();
            }
            if (created && !options.keepTopic()) {
                admin.deleteTopics(Set.of(options.topic())).all().get(30, TimeUnit.SECONDS);
            }
            return summarize(seconds);
        }
    }

    private boolean ensureTopic(Admin admin) throws InterruptedException, ExecutionException, TimeoutException {
        if (admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(options.topic())) {
            out.printf("Using topic %s%n", options.topic());
            return false;
        }
        int brokers = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
        short replicas = (short) (options.replicationFactor() != null ? options.replicationFactor() : Math.min(3, brokers));
        try {
            admin.createTopics(List.of(new NewTopic(options.topic(), options.partitions(), replicas)))
                    .all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
        out.printf("Created topic %s: %d partitions, replication factor %d, %d brokers%n", options.topic(),
                options.partitions(), replicas, brokers);
        return true;
    }

    private List<Thread> startConsumers() throws InterruptedException {
        String group = "keel-perf-" + UUID.randomUUID().toString().substring(0, 8);
        LongAdder assigned = new LongAdder();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < options.consumers(); i++) {
            Thread thread = new Thread(() -> consume(group, assigned), "consumer-" + i);
            thread.start();
            threads.add(thread);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!threads.isEmpty() && assigned.sum() < Math.min(options.consumers(), options.partitions())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the consumers got no partitions within 60 s");
            }
            Thread.sleep(50);
        }
        return threads;
    }

    private void consume(String group, LongAdder assigned) {
        Properties props = clientProperties();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(options.topic()));
            boolean counted = false;
            while (consuming.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    Header sentAt = record.headers().lastHeader(SENT_AT);
                    if (sentAt != null) {
                        endToEndLatency.recordNanos(System.nanoTime() - ByteBuffer.wrap(sentAt.value()).getLong());
                        consumed.increment();
                    }
                }
                if (!counted && !consumer.assignment().isEmpty()) {
                    assigned.increment();
                    counted = true;
                }
            }
        }
    }

    private List<Thread> startProducers() {
        byte[] payload = new byte[options.messageSize()];
        new Random(42).nextBytes(payload);
        long intervalNanos = (long) (1e9 * options.producers() / options.rate());
        long end = System.nanoTime() + options.duration().toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < options.producers(); i++) {
            Thread thread = new Thread(() -> produce(payload, intervalNanos, end), "producer-" + i);
            thread.start();
            threads.add(thread);
        }
        return threads;
    }

    private void produce(byte[] payload, long intervalNanos, long end) {
        Properties props = clientProperties();
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            long next = System.nanoTime();
            while (next < end) {
                long now = System.nanoTime();
                if (now < next) {
                    LockSupport.parkNanos(next - now);
                }
                long sentAt = System.nanoTime();
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(options.topic(), payload);
                record.headers().add(SENT_AT, ByteBuffer.allocate(Long.BYTES).putLong(sentAt).array());
                producer.send(record, (metadata, e) -> {
                    if (e == null) {
                        publishLatency.recordNanos(System.nanoTime() - sentAt);
                        published.increment();
                    } else {
                        errors.increment();
                        if (firstError == null) {
                            firstError = e.toString();
                        }
                    }
                });
                next += intervalNanos;
            }
            producer.flush();
        }
    }

    /** Prints a line per report interval until the duration is over. */
    private void report(long started) throws InterruptedException {
        long interval = options.reportInterval().toNanos();
        long end = started + options.duration().toNanos();
        long lastAt = started;
        long lastPublished = 0;
        long lastConsumed = 0;
        for (long at = started + interval; ; at += interval) {
            long wakeUp = Math.min(at, end);
            while (System.nanoTime() < wakeUp) {
                Thread.sleep(Math.max(1, (wakeUp - System.nanoTime()) / 1_000_000));
            }
            long now = System.nanoTime();
            long pub = published.sum();
            long con = consumed.sum();
            double seconds = (now - lastAt) / 1e9;
            publishLatency.roll();
            endToEndLatency.roll();
            out.printf(Locale.ROOT, "%7.1f s  pub %9.1f msg/s %8.2f MiB/s | cons %9.1f msg/s %8.2f MiB/s | backlog %7d"
                            + " | pub latency ms %s | e2e latency ms %s%n",
                    (now - started) / 1e9, (pub - lastPublished) / seconds, mib(pub - lastPublished) / seconds,
                    (con - lastConsumed) / seconds, mib(con - lastConsumed) / seconds, Math.max(0, pub - con),
                    publishLatency.interval(), endToEndLatency.interval());
            lastAt = now;
            lastPublished = pub;
            lastConsumed = con;
            if (wakeUp >= end) {
                return;
            }
        }
    }

    private boolean summarize(double seconds) {
        publishLatency.roll();
        endToEndLatency.roll();
        long pub = published.sum();
        long con = consumed.sum();
        out.printf(Locale.ROOT, "%nPublished %d messages of %d bytes in %.1f s: %.1f msg/s, %.2f MiB/s; consumed %d; errors %d%n",
                pub, options.messageSize(), seconds, pub / seconds, mib(pub) / seconds, con, errors.sum());
        out.println("Publish latency ms:    " + publishLatency.total());
        if (options.consumers() > 0) {
            out.println("End-to-end latency ms: " + endToEndLatency.total());
        }
        if (firstError != null) {
            out.println("First publish error: " + firstError);
        }
        if (options.json()) {
            out.printf(Locale.ROOT, "{\"topic\":\"%s\",\"seconds\":%.3f,\"messageSize\":%d,\"publishedMessages\":%d,"
                            + "\"publishedBytes\":%d,\"publishRate\":%.3f,\"publishBytesPerSec\":%.3f,\"consumedMessages\":%d,"
                            + "\"errors\":%d,\"publishLatencyMs\":%s,\"endToEndLatencyMs\":%s}%n",
                    options.topic(), seconds, options.messageSize(), pub, pub * options.messageSize(), pub / seconds,
                    pub * options.messageSize() / seconds, con, errors.sum(), publishLatency.totalJson(),
                    endToEndLatency.totalJson());
        }
        return errors.sum() == 0 && (options.consumers() == 0 || con >= pub);
    }

    private double mib(long messages) {
        return messages * (double) options.messageSize() / (1024 * 1024);
    }
}
