package dev.keel.controlplane.metrics;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.drains.AgentBrokerDrain;
import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.StepRun;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Scale-down asks a surplus broker's agent, in the answer to its report, to drain, and waits for it. */
class BrokerDrainTest extends ApiTest {

    @Autowired
    InstanceTokens tokens;
    @Autowired
    AgentBrokerDrain drain;

    private UUID instanceId;
    private AgentReports reports;

    @BeforeEach
    void runningInstance() {
        var api = api(EDITOR);
        // Six brokers, nodes 0 to 5: the drains below retire some of them, as a scale-down to 3 or 2 brokers would.
        JsonNode instance = createInstancePlayedByTest(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 3, 6));
        instanceId = UUID.fromString(instance.get("id").asString());
        reports = new AgentReports(port, instanceId);
    }

    @Test
    void theScaleDownWaitsUntilEverySurplusBrokerReportsItselfDrained() {
        assertThat(answer(4, null)).as("nothing asked yet").isFalse();
        answer(5, null);

        // As the drain step of a scale-down to 3 brokers runs it.
        CompletableFuture<Void> drained = draining(3, Map.of(AgentReports.machine(4), 4, AgentReports.machine(5), 5));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(4, null) && answer(5, null));
        assertThat(directives(4, null).get("drainTo").toString()).as("to the brokers that stay").isEqualTo("[0,1,2]");
        assertThat(answer(2, null)).as("a broker that stays does not drain").isFalse();

        assertThat(answer(4, "DRAINED")).isTrue();
        assertThat(answer(5, "DRAINING")).isTrue();
        assertThat(drained).as("broker 5 still draining").isNotDone();

        answer(5, "DRAINED");
        assertThat(drained).succeedsWithin(5, TimeUnit.SECONDS);
    }

    @Test
    void theInstanceShowsTheDrainOfTheBrokerItRetires() {
        answer(2, null);
        CompletableFuture<Void> drained = draining(2, Map.of(AgentReports.machine(2), 2));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(2, "DRAINING"));

        JsonNode brokers = api(VIEWER).get("/instances/" + instanceId).json().get("inventory").get("brokers");
        assertThat(brokers.get(2).get("drain").get("status").asString()).isEqualTo("DRAINING");
        assertThat(brokers.get(2).get("drain").get("partitionsRemaining").asInt()).isEqualTo(7);
        assertThat(brokers.get(0).get("drain").isNull()).as("a broker that stays").isTrue();

        answer(2, "DRAINED");
        assertThat(drained).succeedsWithin(5, TimeUnit.SECONDS);
    }

    @Test
    void aMachineThatDoesNotReportHasNoBrokerToDrain() {
        assertThat(draining(3, Map.of(AgentReports.machine(6), 6)))
                .succeedsWithin(5, TimeUnit.SECONDS);
    }

    @Test
    void aFailedDrainFailsTheStepNamingTheBrokerAndIsAskedAgainOnRetry() {
        answer(4, null);
        CompletableFuture<Void> first = draining(3, Map.of(AgentReports.machine(4), 4));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(4, null));
        reports.send(4, tokens.of(instanceId), AgentReports.draining(AgentReports.report(instanceId, 4, true, Map.of()),
                "FAILED", 1, "orders-0 has 3 replicas [0, 1, 4] and there is no other broker to move broker 4's replica to"));

        assertThat(first).failsWithin(5, TimeUnit.SECONDS).withThrowableThat().havingRootCause()
                .isInstanceOf(ProvisioningException.class)
                .withMessageContaining("broker 4 (" + AgentReports.machine(4) + ")")
                .withMessageContaining("no other broker to move");
        assertThat(answer(4, null)).as("a failed drain is not asked again by itself").isFalse();

        draining(3, Map.of(AgentReports.machine(4), 4));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(4, null));
    }

    @Test
    void aDrainThatOutlastsTheTimeoutFailsTheStepAndKeepsTheBroker() {
        answer(4, null);
        CompletableFuture<Void> slow = draining(3, Map.of(AgentReports.machine(4), 4));
        await().atMost(Duration.ofSeconds(5)).until(() -> answer(4, "DRAINING"));

        assertThat(slow).failsWithin(10, TimeUnit.SECONDS).withThrowableThat().havingRootCause()
                .isInstanceOf(ProvisioningException.class)
                .withMessageContaining("did not finish draining within 3 s: 7 partition replicas remain");
    }

    /** Node {@code node} reports (with a drain status, or none) and returns whether the answer asks it to drain. */
    private boolean answer(int node, String drainStatus) {
        return directives(node, drainStatus).get("drain").asBoolean();
    }

    private JsonNode directives(int node, String drainStatus) {
        Map<String, Object> report = AgentReports.report(instanceId, node, true, Map.of());
        if (drainStatus != null) {
            report = AgentReports.draining(report, drainStatus, 7, null);
        }
        var response = reports.send(node, tokens.of(instanceId), report);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    /** The drain step's wait, as a run that waits in its thread takes it, in the background. */
    private CompletableFuture<Void> draining(int brokerCount, Map<String, Integer> nodesByMachine) {
        return CompletableFuture.runAsync(() -> drain.drain(instanceId, brokerCount, nodesByMachine, StepRun.INLINE));
    }
}
