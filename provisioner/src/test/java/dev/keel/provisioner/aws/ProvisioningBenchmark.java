package dev.keel.provisioner.aws;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.WalType;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Benchmark, not a test: a 3-zone FSWAL create (2 × 384 MBps file systems, 6 AKU) against the
 * emulators, printing the total time, the time inside AWS calls, the time waiting between polls of
 * AWS lifecycles, and what is left: the control plane's own work. Run with {@code provisioner/bench/create-fswal}.
 */
public final class ProvisioningBenchmark {

    private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("keel-bench-started");

    public static void main(String[] args) {
        Duration poll = Duration.ofMillis(Long.parseLong(System.getProperty("poll.ms", "200")));
        CallTimer timer = new CallTimer();
        LocalStackAccount aws = new LocalStackAccount();
        AwsProvisionerSettings settings = aws.settings()
                .withEndpoints(AwsEndpoints.all(aws.endpoint).withFsx(LocalStackAccount.fsxEndpoint()))
                .withWaits(Waits.aws().scaled(LocalStackAccount.WAIT_SCALE))
                .withInterceptors(List.of(timer));
        ProvisioningTarget target = new ProvisioningTarget(UUID.randomUUID(), "bench-fswal", LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones, WalType.FSWAL, 6, 384, 2, "m7g.large", 6, "1.7.3", Inventory.EMPTY, null);
        try (AwsProvisioningDriver driver = new AwsProvisioningDriver(settings)) {
            long started = System.nanoTime();
            ProvisioningTarget created = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, target);
            long total = System.nanoTime() - started;
            long inCalls = timer.nanos.get();
            long waiting = driver.timeWaitingForAws().toNanos();
            System.out.printf("3-zone FSWAL create, 6 brokers, 2 x 384 MBps FSx (emulators, poll every %d ms)%n", poll.toMillis());
            System.out.printf("  total                      %8.2f s%n", total / 1e9);
            System.out.printf("  inside AWS calls           %8.2f s  (%d calls)%n", inCalls / 1e9, timer.calls.get());
            timer.byOperation.forEach((op, n) -> System.out.printf("      %-34s %5d%n", op, n.get()));
            System.out.printf("  waiting for AWS lifecycles %8.2f s  (sleeps between polls: FSx, SVM, volume, EC2 states)%n",
                    waiting / 1e9);
            long own = total - inCalls - waiting;
            System.out.printf("  control plane's own work   %8.2f s%n", own / 1e9);
            System.out.printf("  AWS (calls + waits) : own  %8.1f : 1  (own work is %.1f %% of the total)%n",
                    (double) (inCalls + waiting) / own, 100.0 * own / total);
            AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, created);
        }
    }

    /** Sums the wall time of every SDK call, from the first byte out to the response parsed. */
    private static final class CallTimer implements ExecutionInterceptor {
        final AtomicLong nanos = new AtomicLong();
        final AtomicLong calls = new AtomicLong();
        final ConcurrentHashMap<String, AtomicLong> byOperation = new ConcurrentHashMap<>();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            attributes.putAttribute(STARTED, System.nanoTime());
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
            if (started != null) {
                nanos.addAndGet(System.nanoTime() - started);
                calls.incrementAndGet();
                String operation = attributes.getAttribute(software.amazon.awssdk.core.interceptor.SdkExecutionAttribute.SERVICE_NAME)
                        + ":" + attributes.getAttribute(software.amazon.awssdk.core.interceptor.SdkExecutionAttribute.OPERATION_NAME);
                byOperation.computeIfAbsent(operation, k -> new AtomicLong()).incrementAndGet();
            }
        }
    }
}
