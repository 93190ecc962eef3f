package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.StaleStep;
import dev.keel.provisioner.StepRun;
import dev.keel.provisioner.StepRuns;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;

class StepFenceTest {

    /** Nothing listens here: a call that went out would fail to connect, not with the fence. */
    private static final URI NOWHERE = URI.create("http://127.0.0.1:1");

    private final Ec2Client ec2 = Ec2Client.builder().endpointOverride(NOWHERE).region(Region.US_EAST_1)
            .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
            .overrideConfiguration(c -> c.addExecutionInterceptor(new StepFence()).retryStrategy(r -> r.maxAttempts(1)))
            .build();

    @Test
    void aRunThatLostItsStepChangesNothingInTheCloud() {
        AtomicInteger asked = new AtomicInteger();
        StepRun lost = run(() -> {
            asked.incrementAndGet();
            throw new StaleStep("taken over");
        });
        assertThatThrownBy(() -> StepFence.during(lost, () -> ec2.runInstances(b -> b.minCount(1).maxCount(1))))
                .isInstanceOf(StaleStep.class);
        assertThatThrownBy(() -> StepFence.during(lost, () -> ec2.terminateInstances(b -> b.instanceIds("i-1"))))
                .isInstanceOf(StaleStep.class);
        assertThat(asked).hasValue(2);
    }

    @Test
    void readsAndCallsOutsideAStepAreNotAsked() {
        AtomicInteger asked = new AtomicInteger();
        StepRun counting = run(asked::incrementAndGet);
        assertThatThrownBy(() -> StepFence.during(counting, () -> ec2.describeInstances()))
                .isInstanceOf(SdkClientException.class);
        assertThatThrownBy(() -> ec2.runInstances(b -> b.minCount(1).maxCount(1)))
                .as("no step applies on this thread").isInstanceOf(SdkClientException.class);
        assertThat(asked).hasValue(0);
        assertThat(StepFence.changes("RunInstances")).isTrue();
        assertThat(StepFence.changes("DescribeInstanceStatus")).isFalse();
    }

    private static StepRun run(Runnable check) {
        return StepRuns.of(Duration.ZERO, null, check);
    }
}
