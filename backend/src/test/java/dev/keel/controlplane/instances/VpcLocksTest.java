package dev.keel.controlplane.instances;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.StepWaiting;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(locks.holding(deleting, StepRun.INLINE, ProvisioningTarget::otherInstancesSubnets))
                .as("a create recorded since, with nothing in the account yet").containsExactly("subnet-0b000001");
        instances.updateState(creating, InstanceState.DELETED);
        assertThat(locks.holding(deleting, StepRun.INLINE, ProvisioningTarget::otherInstancesSubnets))
                .as("once it is deleted").isEmpty();
    }

    /**
     * Two instances of a VPC deleted together: the endpoint step of each runs while the other's delete is still under
     * way, and must not keep the endpoint for it. A delete only asked for, which can still be cancelled, still counts.
     */
    @Test
    void anInstanceWhoseDeleteHasStartedNoLongerKeepsTheVpcsEndpoint() {
        Instance like = anInstance();
        String vpc = uniqueVpc();
        ProvisioningTarget deleting = targets.of(instances.find(RecordedInstances.record(instances, like, vpc,
                "subnet-0a000001")).orElseThrow());
        UUID other = RecordedInstances.record(instances, like, vpc, "subnet-0b000001");
        UUID delete = UUID.randomUUID();
        jdbc.sql("""
                INSERT INTO operations (id, organization_id, instance_id, type, state, requested_by, previous_state)
                VALUES (?, ?, ?, 'DELETE', 'PENDING', 'test', 'RUNNING')
                """).params(delete, like.organizationId(), other).update();
        assertThat(locks.holding(deleting, StepRun.INLINE, ProvisioningTarget::otherInstancesSubnets))
                .as("its delete only asked for").containsExactly("subnet-0b000001");

        jdbc.sql("UPDATE operations SET state = 'RUNNING', started_at = now() WHERE id = ?").param(delete).update();
        assertThat(locks.holding(deleting, StepRun.INLINE, ProvisioningTarget::otherInstancesSubnets))
                .as("its delete under way").isEmpty();
    }

    @Test
    void stepsOnOneVpcTakeTurnsWhileAStepOnAnotherGoesOn() throws Exception {
        Instance like = anInstance();
        List<ProvisioningTarget> vpc = sharingAVpc(like);
        ProvisioningTarget elsewhere = sharingAVpc(like).getFirst();
        AtomicBoolean secondRan = new AtomicBoolean();
        try (ExecutorService steps = Executors.newFixedThreadPool(3)) {
            Held holding = holdLockOf(vpc.getFirst(), steps);
            Future<?> waiting = waitingBehind(steps, vpc.getLast(), t -> secondRan.getAndSet(true));
            assertThat(secondRan).as("the second step waits for the first").isFalse();
            assertThat(steps.submit(() -> locks.holding(elsewhere, StepRun.INLINE, t -> "done"))
                    .get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("another VPC's step does not wait")
                    .isEqualTo("done");

            holding.letGo();
            waiting.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(secondRan).isTrue();
        }
    }

    /**
     * A step that finds the lock held does not keep its worker thread for it: once its run may pause no longer, the
     * run ends waiting for the lock, to try again a second later, having run nothing; the wait is anchored where it
     * began. No session waits in the database either.
     */
    @Test
    void aStepThatFindsTheLockHeldEndsItsRunToTryAgainLater() throws Exception {
        List<ProvisioningTarget> vpc = sharingAVpc(anInstance());
        Instant began = Instant.now().minusSeconds(300);
        StepRun spent = new Run(Duration.ZERO, what -> what.contains(vpc.getLast().vpcId()) ? began : null, null);
        AtomicBoolean ran = new AtomicBoolean();
        try (ExecutorService steps = Executors.newFixedThreadPool(1)) {
            Held holding = holdLockOf(vpc.getFirst(), steps);
            Instant tried = Instant.now();

            assertThatThrownBy(() -> locks.holding(vpc.getLast(), spent, t -> ran.getAndSet(true)))
                    .isInstanceOfSatisfying(StepWaiting.class, waiting -> {
                        assertThat(waiting.what()).contains(vpc.getLast().vpcId());
                        assertThat(waiting.since()).isEqualTo(began);
                        assertThat(waiting.nextLook()).isAfterOrEqualTo(tried.plus(NetworkLocks.RETRY_AFTER));
                    });
            assertThat(ran).isFalse();
            assertThat(jdbc.sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                    .query(Integer.class).single()).as("sessions waiting for a lock").isZero();
            holding.letGo();
        }
        boolean ranBefore = locks.holding(vpc.getLast(), spent, t -> ran.getAndSet(true));
        assertThat(ranBefore).as("once free, it runs, for the first time").isFalse();
        assertThat(ran).isTrue();
    }

    /** A holder whose process dies loses its session, as here its session is ended: the next step goes on. */
    @Test
    void aLockEndsWithTheSessionOfItsHolder() throws Exception {
        List<ProvisioningTarget> vpc = sharingAVpc(anInstance());
        try (ExecutorService steps = Executors.newFixedThreadPool(2)) {
            Held dying = holdLockOf(vpc.getFirst(), steps);
            Future<String> next = waitingBehind(steps, vpc.getLast(), t -> "done");

            jdbc.sql("""
                    SELECT pg_terminate_backend(pid) FROM pg_locks
                    WHERE locktype = 'advisory' AND granted AND objsubid = 1
                      AND classid::bigint = (hashtextextended(:key, 0) >> 32) & 4294967295
                      AND objid::bigint = hashtextextended(:key, 0) & 4294967295
                    """).param("key", "vpc:" + NetworkLocks.vpcOf(vpc.getFirst())).query(Boolean.class).single();

            assertThat(next.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");
            dying.letGo();
        }
    }

    /** A step on a VPC that holds its lock until released. */
    private record Held(Future<?> step, CountDownLatch release) {

        void letGo() throws Exception {
            release.countDown();
            step.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private Held holdLockOf(ProvisioningTarget target, ExecutorService steps) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<?> step = steps.submit(() -> locks.holding(target, StepRun.INLINE, t -> {
            holding.countDown();
            try {
                return release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }));
        assertThat(holding.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        return new Held(step, release);
    }

    private Instance anInstance() {
        ApiClient editor = api(EDITOR);
        JsonNode created = createRunningInstance(editor, instanceBody(registerAccount(editor).get("id").asString(), "S3",
                1, 3));
        UUID id = UUID.fromString(created.get("id").asString());
        return instances.find(id).orElseThrow();
    }

    /** Two instances being created in a VPC of their own, in the account and region of {@code like}. */
    private List<ProvisioningTarget> sharingAVpc(Instance like) {
        String vpc = uniqueVpc();
        return Stream.of("subnet-0a000001", "subnet-0b000001").map(subnet -> targets.of(instances.find(
                RecordedInstances.record(instances, like, vpc, subnet)).orElseThrow())).toList();
    }

    /** A step on {@code target} submitted to {@code steps}, once it has found its VPC's lock held and waits. */
    private <T> Future<T> waitingBehind(ExecutorService steps, ProvisioningTarget target,
                                        Function<ProvisioningTarget, T> step) throws InterruptedException {
        CountDownLatch paused = new CountDownLatch(1);
        StepRun patient = new Run(PATIENCE, what -> null, paused);
        Future<T> waiting = steps.submit(() -> locks.holding(target, patient, step));
        assertThat(paused.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("it waits for the lock").isTrue();
        return waiting;
    }

    /** A run that may pause {@code pauseLeft} in its thread, whose earlier waits began {@code since}. */
    private record Run(Duration pauseLeft, Function<String, Instant> since, CountDownLatch paused) implements StepRun {

        @Override
        public void beforeCloudChange() {
        }

        @Override
        public Instant waitingSince(String what) {
            return since.apply(what);
        }

        @Override
        public Duration inlinePauseLeft() {
            return pauseLeft;
        }

        @Override
        public void pausedInline(Duration pause) {
            if (paused != null) {
                paused.countDown();
            }
        }
    }

    private static String uniqueVpc() {
        return "vpc-" + UUID.randomUUID().toString().replace("-", "").substring(0, 17);
    }
}
