package dev.keel.controlplane.instances;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.ProvisioningTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The VPC locks the provisioner's steps on Keel's S3 gateway endpoint take: PostgreSQL sessions of their own, so they
 * hold across backend processes and end with the session that holds them; and what a step decides on under one, the
 * VPC's other instances as recorded once it holds it. Every account the tests register is the same AWS account, so
 * each test's VPCs are its own.
 */
class VpcLocksTest extends ApiTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Autowired
    private VpcLocks locks;

    @Autowired
    private ProvisioningTargets targets;

    @Autowired
    private InstanceRepository instances;

    @Autowired
    private JdbcClient jdbc;

    @Test
    void underTheLockAStepDecidesOnTheVpcsOtherInstancesAsRecordedThen() {
        Instance like = anInstance();
        String vpc = uniqueVpc();
        ProvisioningTarget deleting = targets.of(instances.find(RecordedInstances.record(instances, like, vpc,
                "subnet-0a000001")).orElseThrow());
        assertThat(deleting.otherInstancesSubnets()).as("when the step's target was read").isEmpty();

        UUID creating = RecordedInstances.record(instances, like, vpc, "subnet-0b000001");
        assertThat(locks.holding(deleting, ProvisioningTarget::otherInstancesSubnets))
                .as("a create recorded since, with nothing in the account yet").containsExactly("subnet-0b000001");
        instances.updateState(creating, InstanceState.DELETED);
        assertThat(locks.holding(deleting, ProvisioningTarget::otherInstancesSubnets)).as("once it is deleted")
                .isEmpty();
    }

    @Test
    void stepsOnOneVpcTakeTurnsWhileAStepOnAnotherGoesOn() throws Exception {
        Instance like = anInstance();
        String vpc = uniqueVpc();
        ProvisioningTarget first = recorded(like, vpc);
        ProvisioningTarget second = recorded(like, vpc);
        ProvisioningTarget elsewhere = recorded(like, uniqueVpc());
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean secondRan = new AtomicBoolean();
        try (ExecutorService steps = Executors.newFixedThreadPool(3)) {
            Future<?> held = steps.submit(() -> locks.holding(first, t -> awaitRelease(holding, release)));
            assertThat(holding.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Future<?> waiting = steps.submit(() -> locks.holding(second, t -> secondRan.getAndSet(true)));
            awaitWaitingSessions(1);
            assertThat(secondRan).as("the second step waits for the first").isFalse();
            assertThat(steps.submit(() -> locks.holding(elsewhere, t -> "done")).get(PATIENCE.toSeconds(),
                    TimeUnit.SECONDS)).as("another VPC's step does not wait").isEqualTo("done");

            release.countDown();
            held.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(secondRan).isTrue();
        }
    }

    /** A holder whose process dies loses its session, as here its session is ended: the next step goes on. */
    @Test
    void aLockEndsWithTheSessionOfItsHolder() throws Exception {
        Instance like = anInstance();
        String vpc = uniqueVpc();
        ProvisioningTarget first = recorded(like, vpc);
        ProvisioningTarget second = recorded(like, vpc);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ExecutorService steps = Executors.newFixedThreadPool(2)) {
            Future<?> dying = steps.submit(() -> locks.holding(first, t -> awaitRelease(holding, release)));
            assertThat(holding.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            Future<String> next = steps.submit(() -> locks.holding(second, t -> "done"));
            awaitWaitingSessions(1);

            jdbc.sql("""
                    SELECT pg_terminate_backend(pid) FROM pg_locks
                    WHERE locktype = 'advisory' AND granted AND objsubid = 1
                      AND classid::bigint = (hashtextextended(:key, 0) >> 32) & 4294967295
                      AND objid::bigint = hashtextextended(:key, 0) & 4294967295
                    """).param("key", "vpc:" + NetworkLocks.vpcOf(first)).query(Boolean.class).single();

            assertThat(next.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");
            release.countDown();
            dying.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private Instance anInstance() {
        ApiClient editor = api(EDITOR);
        UUID id = UUID.fromString(createRunningInstance(editor, instanceBody(registerAccount(editor).get("id").asString(),
                "S3", 1, 3)).get("id").asString());
        return instances.find(id).orElseThrow();
    }

    private ProvisioningTarget recorded(Instance like, String vpc) {
        return targets.of(instances.find(RecordedInstances.record(instances, like, vpc, "subnet-0a000001"))
                .orElseThrow());
    }

    private static String uniqueVpc() {
        return "vpc-" + UUID.randomUUID().toString().replace("-", "").substring(0, 17);
    }

    private static Set<String> awaitRelease(CountDownLatch holding, CountDownLatch release) {
        holding.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Set.of();
    }

    /** Waits until {@code sessions} sessions wait for an advisory lock. */
    private void awaitWaitingSessions(int sessions) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (waitingSessions() < sessions && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(waitingSessions()).isEqualTo(sessions);
    }

    private int waitingSessions() {
        return jdbc.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                .query(Integer.class).single();
    }
}
