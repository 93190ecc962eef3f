package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

import dev.keel.controlplane.KeelApplication;
import dev.keel.controlplane.settings.ProductionSettings;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import dev.keel.controlplane.support.TestEnvironment;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.aws.AwsProvisioningDriver;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import tools.jackson.databind.JsonNode;

/**
 * Benchmark, not a test (run by {@code backend/bench/create-fswal}): a 3-zone FSWAL create (6 AKU, 2 x 384 MBps FSx)
 * through the API of a backend started here with the AWS driver, against LocalStack and an FSx emulator whose
 * lifecycles are scaled by {@code KEEL_BENCH_TIME_SCALE}, the backend's waits scaled alike. Prints the time from the
 * API's 202 to the operation's first AWS call, the AWS calls the create made, and the time split between AWS calls,
 * waits for AWS lifecycles and the control plane's own work.
 */
public final class CreateBenchmark {

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("keel-bench-started");

    public static void main(String[] args) {
        double scale = Double.parseDouble(System.getenv().getOrDefault("KEEL_BENCH_TIME_SCALE", "0.01"));
        String lifecycles = System.getenv().getOrDefault("KEEL_BENCH_LIFECYCLE", "realistic");
        CallRecorder calls = new CallRecorder();
        try (ConfigurableApplicationContext backend = new SpringApplicationBuilder(KeelApplication.class)
                .profiles(ProductionSettings.LOCAL_PROFILE)
                .initializers(context -> ((GenericApplicationContext) context)
                        .registerBean(CallRecorder.class, () -> calls))
                // Arguments, so they win over the environment the test stack's env file sets.
                .run("--server.port=0",
                        "--spring.datasource.url=" + Database.fresh(),
                        "--keel.provisioning.driver=aws",
                        "--keel.provisioning.aws.endpoint=" + TestEnvironment.require("KEEL_AWS_ENDPOINT"),
                        "--keel.provisioning.aws.fsx-endpoint=" + TestEnvironment.require("KEEL_FSX_ENDPOINT"),
                        "--keel.provisioning.aws.wait-scale=" + scale,
                        "--keel.drift.interval=1h",
                        "--logging.level.root=WARN")) {
            String port = backend.getEnvironment().getProperty("local.server.port");
            ApiClient api = new ApiClient("http://localhost:" + port + "/api/v1", null).as(Fixtures.EDITOR);
            OnboardedAccount account = new OnboardedAccount(api);
            AwsProvisioningDriver driver = (AwsProvisioningDriver) backend.getBean(ProvisioningDriver.class);

            calls.reset();
            Duration waitedBefore = driver.timeWaitingForAws();
            JsonNode accepted = api.post("/instances",
                    account.instanceBody("FSWAL", 3, 6, Map.of("throughputMBps", 384, "count", 2))).json();
            JsonNode done = OnboardedAccount.finished(api, accepted.get("id").asString());
            if (!done.get("state").asString().equals("SUCCEEDED")) {
                throw new IllegalStateException("The create did not succeed: " + done);
            }
            Instant createdAt = Instant.parse(done.get("createdAt").asString());
            Duration total = Duration.between(createdAt, Instant.parse(done.get("finishedAt").asString()));
            Duration inCalls = Duration.ofNanos(calls.nanos.sum());
            Duration waiting = driver.timeWaitingForAws().minus(waitedBefore);
            Duration own = total.minus(inCalls).minus(waiting);

            System.out.printf("3-zone FSWAL create through the API, 6 brokers, 2 x 384 MBps FSx; FSx lifecycles %s"
                    + " x %s, the backend's waits scaled alike%n", lifecycles, scale);
            // The create checks the spec in the account (network, boot image) before its 202; the operation's own
            // first call is the one the queue's latency shows in.
            Instant firstOfOperation = calls.starts.stream().filter(t -> !t.isBefore(createdAt)).min(Instant::compareTo)
                    .orElseThrow();
            long beforeAccepted = calls.starts.stream().filter(t -> t.isBefore(createdAt)).count();
            System.out.printf("  API's 202 -> operation's first AWS call %5d ms%n",
                    Duration.between(createdAt, firstOfOperation).toMillis());
            System.out.printf("  AWS calls                    %8d  (%d of them the create's checks before its 202)%n",
                    calls.count.sum(), beforeAccepted);
            new TreeMap<>(calls.byOperation).forEach((op, n) -> System.out.printf("      %-36s %5d%n", op, n.get()));
            System.out.printf("  total (202 -> SUCCEEDED)     %8.2f s%n", seconds(total));
            System.out.printf("  inside AWS calls             %8.2f s%n", seconds(inCalls));
            System.out.printf("  waiting for AWS lifecycles   %8.2f s%n", seconds(waiting));
            System.out.printf("  control plane's own work     %8.2f s  (%.1f %% of the total)%n", seconds(own),
                    100.0 * own.toNanos() / total.toNanos());

            String deletion = api.delete("/instances/" + accepted.get("instanceId").asString()).json()
                    .get("id").asString();
            OnboardedAccount.finished(api, deletion);
        }
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** Counts the AWS calls made after {@link #reset()}, by operation, with their wall time and when each started. */
    static final class CallRecorder implements ExecutionInterceptor {
        final LongAdder count = new LongAdder();
        final LongAdder nanos = new LongAdder();
        final Queue<Instant> starts = new ConcurrentLinkedQueue<>();
        final Map<String, AtomicLong> byOperation = new ConcurrentHashMap<>();
        private volatile boolean recording;

        void reset() {
            count.reset();
            nanos.reset();
            starts.clear();
            byOperation.clear();
            recording = true;
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (recording) {
                starts.add(Instant.now());
                attributes.putAttribute(STARTED, System.nanoTime());
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            record(attributes);
        }

        @Override
        public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
            record(attributes);
        }

        private void record(ExecutionAttributes attributes) {
            Long started = attributes.getAttribute(STARTED);
            if (started == null) {
                return;
            }
            nanos.add(System.nanoTime() - started);
            count.increment();
            byOperation.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + ":"
                    + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), k -> new AtomicLong())
                    .incrementAndGet();
        }
    }
}
