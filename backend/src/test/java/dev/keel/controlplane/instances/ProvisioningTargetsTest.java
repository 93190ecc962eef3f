package dev.keel.controlplane.instances;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provisioning target names the subnets of the other Keel instances in its VPC, from the control plane's records:
 * they share Keel's S3 gateway endpoint there, and one being created has nothing in the account yet to show them.
 * Every account the tests register is the same AWS account, so this test's VPC is its own.
 */
class ProvisioningTargetsTest extends ApiTest {

    @Autowired
    private ProvisioningTargets targets;

    @Autowired
    private InstanceRepository instances;

    @Test
    void theTargetCarriesTheSubnetsOfTheVpcsOtherInstancesNotDeleted() {
        ApiClient editor = api(EDITOR);
        String vpc = "vpc-" + UUID.randomUUID().toString().replace("-", "").substring(0, 17);
        Instance instance = instances.find(id(createRunningInstance(editor, instanceBody(
                registerAccount(editor).get("id").asString(), "S3", 1, 3)))).orElseThrow();
        UUID self = record(instance, vpc, "subnet-0a000001");
        record(instance, vpc, "subnet-0b000001");
        instances.updateState(record(instance, vpc, "subnet-0d000001"), InstanceState.DELETED);
        record(instance, "vpc-0c000000000000001", "subnet-0c000001");
        // Another organization's registration of the same AWS account: its instances share the VPC's endpoint too.
        ApiClient other = api(OTHER_ORG_ADMIN);
        Instance elsewhere = instances.find(id(createRunningInstance(other, instanceBody(
                registerAccount(other).get("id").asString(), "S3", 1, 3)))).orElseThrow();
        record(elsewhere, vpc, "subnet-0e000001");

        assertThat(targets.of(instances.find(self).orElseThrow()).otherInstancesSubnets())
                .as("neither its own subnet nor those of another VPC or of a deleted instance")
                .containsExactlyInAnyOrder("subnet-0b000001", "subnet-0e000001");
    }

    private UUID record(Instance like, String vpc, String subnet) {
        return RecordedInstances.record(instances, like, vpc, subnet);
    }

    private static UUID id(JsonNode instance) {
        return UUID.fromString(instance.get("id").asString());
    }
}
