package dev.keel.broker.localrunner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import dev.keel.broker.agent.BootUserData;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.CreateLaunchTemplateRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.RunInstancesRequest;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import software.amazon.awssdk.services.ec2.model.TerminateInstancesRequest;

/**
 * Broker instances in the emulator (KEEL_AWS_ENDPOINT) as the provisioner makes them: a launch template whose user data
 * is the contract's boot script carrying a node spec, and one tagged instance per node, one per zone in turn.
 * Terminates what it launched on close.
 */
final class EmulatedBrokerInstances implements AutoCloseable {
    static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");
    private static final long T0 = System.nanoTime();

    final Ec2Client ec2;
    final List<String> launched = new ArrayList<>();
    private LocalRunner runner;

    EmulatedBrokerInstances() {
        String endpoint = System.getenv("KEEL_AWS_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            throw new IllegalStateException("KEEL_AWS_ENDPOINT is not set: this integration test needs a running "
                    + "LocalStack (e.g. KEEL_AWS_ENDPOINT=http://127.0.0.1:44566); see broker-image/README.md");
        }
        ec2 = Main.client(java.net.URI.create(endpoint), "us-east-1");
    }

    /** A three-broker S3 instance's node spec as the provisioner writes it; {@code extra}: more keys, each ",k:v". */
    static String nodeSpec(UUID instanceId, String name, String ingestUrl, String extra) {
        return """
                {"instanceId":"%s","instanceName":"%s","region":"us-east-1","brokerVersion":"1.7.4","aku":3,
                 "brokerCount":3,"walType":"S3","dataBucket":"keel-%s-data","opsBucket":"keel-%s-ops",
                 "listenerPort":9092,"controllerPort":9093,"nodeIdTag":"byoc:node-id","ingestUrl":"%s"%s}"""
                .formatted(instanceId, name, instanceId, instanceId, ingestUrl, extra).replace("\n", "");
    }

    /** {@code nodes} instances of the Keel instance {@code instanceId} booting {@code spec}; their EC2 ids. */
    List<String> launch(UUID instanceId, String spec, int nodes) throws IOException {
        String example = Files.readString(Path.of("../../contract/broker-user-data.example.sh"));
        String userData = example.replace(BootUserData.nodeSpec(example), spec);
        String ltId = ec2.createLaunchTemplate(CreateLaunchTemplateRequest.builder()
                .launchTemplateName("keel-" + instanceId + "-brokers")
                .launchTemplateData(RequestLaunchTemplateData.builder().imageId("ami-12345678").instanceType("m7g.large")
                        .userData(Base64.getEncoder().encodeToString(userData.getBytes(StandardCharsets.UTF_8))).build())
                .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.LAUNCH_TEMPLATE)
                        .tags(tag("byoc:instance-id", instanceId.toString()), tag("byoc:managed-by", "keel"),
                                tag("byoc:resource", "launch-template")).build())
                .build()).launchTemplate().launchTemplateId();
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String zone = ZONES.get(n % ZONES.size());
            Instance i = ec2.runInstances(RunInstancesRequest.builder().minCount(1).maxCount(1)
                    .launchTemplate(b -> b.launchTemplateId(ltId).version("$Latest"))
                    .placement(p -> p.availabilityZone(zone))
                    .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.INSTANCE)
                            .tags(tag("byoc:instance-id", instanceId.toString()), tag("byoc:resource", "broker-" + n),
                                    tag("byoc:node-id", Integer.toString(n)), tag("byoc:managed-by", "keel")).build())
                    .build()).instances().get(0);
            ids.add(i.instanceId());
        }
        launched.addAll(ids);
        return ids;
    }

    /**
     * A local runner for the Keel instance {@code instanceId} only (the emulator is shared with other tests'
     * instances), polling every second, reporting every 2 s, its state in {@code state}; stopped on close.
     */
    LocalRunner runLocally(Path state, UUID instanceId) throws IOException {
        runner = new LocalRunner(ec2, new LocalRunner.Settings(state,
                Path.of(System.getProperty("keel.kafkaLibs", "target/kafka-libs")), Main.javaBin(),
                System.getProperty("java.class.path"), Duration.ofSeconds(1), 2))
                .onlyInstances(instanceId.toString()::equals);
        return runner;
    }

    /** The runner's {@code keel:local-address} tag on an instance, or null. */
    String addressTag(String ec2Id) {
        return ec2.describeInstances(DescribeInstancesRequest.builder().instanceIds(ec2Id).build()).reservations()
                .get(0).instances().get(0).tags().stream().filter(t -> t.key().equals(LocalRunner.ADDRESS_TAG))
                .map(Tag::value).findFirst().orElse(null);
    }

    void terminate(String ec2Id) {
        ec2.terminateInstances(TerminateInstancesRequest.builder().instanceIds(ec2Id).build());
    }

    private static Tag tag(String k, String v) {
        return Tag.builder().key(k).value(v).build();
    }

    static void mark(String test, String what) {
        System.err.printf("[%s +%.1fs] %s%n", test, (System.nanoTime() - T0) / 1e9, what);
    }

    static void await(String test, String what, Duration timeout, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        mark(test, "waiting for " + what);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for: " + what);
            }
            Thread.sleep(250);
        }
    }

    @Override
    public void close() {
        if (runner != null) {
            runner.close();
        }
        if (!launched.isEmpty()) {
            ec2.terminateInstances(TerminateInstancesRequest.builder().instanceIds(launched).build());
        }
        ec2.close();
    }
}
