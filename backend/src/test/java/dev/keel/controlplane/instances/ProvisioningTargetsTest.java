package dev.keel.controlplane.instances;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.provisioner.Inventory;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provisioning target names the subnets of the other Keel instances in its VPC, from the control plane's records:
 * they share Keel's S3 gateway endpoint there, and one being created has nothing in the account yet to show them.
 */
class ProvisioningTargetsTest extends ApiTest {

    private static final String VPC = "vpc-0a1b2c3d4e5f67890";

    @Autowired
    private ProvisioningTargets targets;

    @Autowired
    private InstanceRepository instances;

    @Test
    void theTargetCarriesTheSubnetsOfTheVpcsOtherInstancesNotDeleted() {
        ApiClient editor = api(EDITOR);
        String accountId = registerAccount(editor).get("id").asString();
        UUID instance = id(createRunningInstance(editor, body(accountId, VPC, "subnet-0a000001")));
        createRunningInstance(editor, body(accountId, VPC, "subnet-0b000001", "subnet-0b000002",
                "subnet-0b000003"));
        createRunningInstance(editor, body(accountId, "vpc-0c000000000000001", "subnet-0c000001"));
        JsonNode deleted = createRunningInstance(editor, body(accountId, VPC, "subnet-0d000001"));
        ApiClient.Response deleting = editor.delete("/instances/" + deleted.get("id").asString());
        assertThat(deleting.status()).as(deleting.toString()).isEqualTo(202);
        awaitOperation(editor, deleting.json().get("id").asString(), "SUCCEEDED");
        // Recorded, its create not yet under way: nothing of it is in the account.
        Instance recorded = instances.find(instance).orElseThrow();
        InstanceSpec spec = recorded.spec();
        instances.insert(UUID.randomUUID(), recorded.organizationId(), recorded.cloudAccountId(), unique("kafka"),
                recorded.region(), new InstanceSpec(new NetworkSpec(VPC, List.of(new NetworkSpec.Subnet("us-east-1a",
                        "subnet-0e000001")), spec.network().s3GatewayEndpoint()), spec.wal(), spec.aku(), spec.fsx(),
                        spec.brokerVersion(), spec.catalogVersion()), false, Inventory.EMPTY);

        assertThat(targets.of(instances.find(instance).orElseThrow()).otherInstancesSubnets())
                .as("neither its own subnet nor those of another VPC or of a deleted instance")
                .containsExactlyInAnyOrder("subnet-0b000001", "subnet-0b000002", "subnet-0b000003", "subnet-0e000001");
    }

    private static Map<String, Object> body(String accountId, String vpc, String... subnets) {
        Map<String, Object> body = instanceBody(accountId, "S3", subnets.length, 3);
        List<Map<String, String>> placed = new ArrayList<>();
        for (int i = 0; i < subnets.length; i++) {
            placed.add(Map.of("availabilityZone", "us-east-1" + (char) ('a' + i), "subnetId", subnets[i]));
        }
        body.put("network", Map.of("vpcId", vpc, "subnets", placed));
        return body;
    }

    private static UUID id(JsonNode instance) {
        return UUID.fromString(instance.get("id").asString());
    }
}
