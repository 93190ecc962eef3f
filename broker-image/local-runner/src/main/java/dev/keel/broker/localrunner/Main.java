package dev.keel.broker.localrunner;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * {@code java -jar keel-local-runner.jar --ec2-endpoint http://localhost:4566 --state-dir <dir>
 * [--region us-east-1] [--kafka-libs <dir>] [--poll-seconds 2]}
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                usage("bad argument " + args[i]);
            }
            o.put(args[i].substring(2), args[i + 1]);
        }
        if (args.length % 2 != 0 || !o.containsKey("ec2-endpoint") || !o.containsKey("state-dir")) {
            usage("--ec2-endpoint and --state-dir are required");
        }
        Path jarDir = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getParent();
        Path libs = Path.of(o.getOrDefault("kafka-libs", jarDir.resolve("kafka-libs").toString()));
        if (!Files.isDirectory(libs)) {
            usage("no Kafka jars at " + libs + " (pass --kafka-libs)");
        }
        Ec2Client ec2 = client(URI.create(o.get("ec2-endpoint")), o.getOrDefault("region", "us-east-1"));
        LocalRunner runner = new LocalRunner(ec2, new LocalRunner.Settings(Path.of(o.get("state-dir")), libs,
                javaBin(), System.getProperty("java.class.path"),
                Duration.ofSeconds(Long.parseLong(o.getOrDefault("poll-seconds", "2"))), 10));
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            runner.close();
            done.countDown();
        }, "local-runner-shutdown"));
        runner.start();
        done.await();
    }

    /** An EC2 client for an emulator: any credentials work there. */
    public static Ec2Client client(URI endpoint, String region) {
        return Ec2Client.builder().endpointOverride(endpoint).region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    public static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void usage(String problem) {
        System.err.println("keel-local-runner: " + problem);
        System.err.println("usage: --ec2-endpoint <url> --state-dir <dir> [--region r] [--kafka-libs dir] [--poll-seconds n]");
        System.exit(2);
    }
}
