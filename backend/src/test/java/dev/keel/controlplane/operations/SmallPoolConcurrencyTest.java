package dev.keel.controlplane.operations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.keel.controlplane.settings.ProductionSettings;
import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.fixtures.NoCloudProvisioningDriver;
import dev.keel.provisioner.AccountNetwork;
import dev.keel.provisioner.AccountVerification;
import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.NetworkPathGap;
import dev.keel.provisioner.ProvisioningDriver;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.StepRun;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Twenty instances change at once and every worker waits on the cloud, with five database connections in all: the
 * waits hold none, so the API still reads and writes. A database of its own keeps other tests' workers away.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "keel.provisioning.driver=no-cloud",
        "spring.datasource.hikari.maximum-pool-size=5",
        "spring.datasource.hikari.connection-timeout=2000",
        "db-scheduler.threads=" + SmallPoolConcurrencyTest.CHANGING,
        "db-scheduler.polling-interval=200ms",
})
@ActiveProfiles(ProductionSettings.LOCAL_PROFILE)
class SmallPoolConcurrencyTest {

    static final int CHANGING = 20;

    @LocalServerPort
    int port;
    @Autowired
    HeldCloud cloud;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        String database = Database.fresh();
        registry.add("spring.datasource.url", () -> database);
        ApiTest.keycloak(registry);
    }

    @AfterEach
    void release() {
        cloud.release();
    }

    @Test
    void whileEveryWorkerWaitsOnTheCloudTheApiStillServesReadsAndWrites() {
        ApiClient api = new ApiClient("http://localhost:" + port + "/api/v1", null).as(Fixtures.EDITOR);
        String account = Fixtures.registerAccount(api).get("id").asString();
        List<String> operations = new ArrayList<>();
        for (int i = 0; i < CHANGING; i++) {
            ApiClient.Response created = api.post("/instances", Fixtures.instanceBody(account, "S3", 3, 3));
            assertThat(created.status()).as(created.toString()).isEqualTo(202);
            operations.add(created.json().get("id").asString());
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> cloud.waiting() == CHANGING);

        ApiClient.Response list = api.get("/instances?limit=100");
        assertThat(list.status()).as(list.toString()).isEqualTo(200);
        assertThat(list.json().get("items").size()).isEqualTo(CHANGING);
        assertThat(api.get("/operations/" + operations.getFirst()).json().get("state").asString()).isEqualTo("RUNNING");
        assertThat(Fixtures.registerAccount(api).get("status").asString()).isEqualTo("VERIFIED");
        ApiClient.Response another = api.post("/instances", Fixtures.instanceBody(account, "EBS", 1, 3));
        assertThat(another.status()).as(another.toString()).isEqualTo(202);
        operations.add(another.json().get("id").asString());
        assertThat(cloud.waiting()).as("every worker was still waiting on the cloud").isEqualTo(CHANGING);

        cloud.release();
        for (String operation : operations) {
            JsonNode done = api.await("/operations/" + operation,
                    op -> op.get("state").asString().equals("SUCCEEDED"), Duration.ofSeconds(60));
            assertThat(done.get("progress").get("completedSteps").asInt()).isEqualTo(done.get("steps").size());
        }
    }

    /** The no-cloud driver whose steps wait, as on a slow cloud, until the test releases them. */
    static final class HeldCloud implements ProvisioningDriver {

        private final NoCloudProvisioningDriver cloud;

        HeldCloud(NoCloudProvisioningDriver cloud) {
            this.cloud = cloud;
        }
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicInteger waiting = new AtomicInteger();

        int waiting() {
            return waiting.get();
        }

        void release() {
            released.countDown();
        }

        @Override
        public Inventory apply(String step, ProvisioningTarget target, StepRun run) {
            waiting.incrementAndGet();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } finally {
                waiting.decrementAndGet();
            }
            return cloud.apply(step, target, run);
        }

        @Override
        public List<String> steps(ChangeKind kind, ProvisioningTarget target) {
            return cloud.steps(kind, target);
        }

        @Override
        public List<ResourceChange> plan(ChangeKind kind, ProvisioningTarget target, boolean observe) {
            return cloud.plan(kind, target, observe);
        }

        @Override
        public void deleteRetainedData(ProvisioningTarget target) {
            cloud.deleteRetainedData(target);
        }

        @Override
        public AccountVerification verify(ProvisioningTarget.Account account, String region) {
            return cloud.verify(account, region);
        }

        @Override
        public List<AccountNetwork> networks(ProvisioningTarget.Account account, String region) {
            return cloud.networks(account, region);
        }

        @Override
        public BootImage bootImage(ProvisioningTarget.Account account, String region, String brokerVersion) {
            return cloud.bootImage(account, region, brokerVersion);
        }

        @Override
        public List<NetworkPathGap> networkPathGaps(ProvisioningTarget target) {
            return cloud.networkPathGaps(target);
        }
    }

    @TestConfiguration
    static class HeldCloudConfiguration {

        @Bean
        @Primary
        HeldCloud heldCloud(NoCloudProvisioningDriver noCloud) {
            return new HeldCloud(noCloud);
        }
    }
}
