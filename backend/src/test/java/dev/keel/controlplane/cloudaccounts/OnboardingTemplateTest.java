package dev.keel.controlplane.cloudaccounts;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.WalType;
import dev.keel.provisioner.aws.DesiredState;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The template and the provisioner agree on the broker boundary: where it is (the provisioner builds its ARN from
 * the role's name), that the control-plane role may write broker roles only with it, and that it allows whatever
 * a broker role's own policy grants. LocalStack applies none of this, so only here does a mismatch show before a
 * customer's account refuses it.
 */
class OnboardingTemplateTest {

    private final JsonNode template = new YAMLMapper().readTree(new OnboardingTemplate("123456789012")
            .forOrganization("keel-0123456789abcdef0123"));

    @Test
    void theBoundaryIsWhereTheProvisionerLooksForIt() {
        JsonNode boundary = template.at("/Resources/BrokerBoundary");
        assertThat(boundary.get("Type").asString()).isEqualTo("AWS::IAM::ManagedPolicy");
        assertThat(boundary.at("/Properties/Path").asString()).isEqualTo("/keel/");
        assertThat(boundary.at("/Properties/ManagedPolicyName/Fn::Sub").asString()).isEqualTo("${RoleName}-broker-boundary");

        DesiredState desired = desired("arn:aws:iam::111122223333:role/AcmeKeel");
        assertThat(desired.role().permissionsBoundary())
                .isEqualTo("arn:aws:iam::111122223333:policy/keel/AcmeKeel-broker-boundary");
    }

    @Test
    void brokerRolesCanOnlyBeCreatedAndWrittenWithTheBoundary() {
        List<JsonNode> statements = new ArrayList<>();
        template.at("/Resources/ControlPlaneRole/Properties/Policies/0/PolicyDocument/Statement").forEach(statements::add);
        for (String write : List.of("iam:CreateRole", "iam:PutRolePolicy", "iam:PutRolePermissionsBoundary")) {
            assertThat(statements).filteredOn(s -> s.get("Effect").asString().equals("Allow") && actions(s).contains(write))
                    .as(write).singleElement().satisfies(s -> assertThat(s.at("/Condition/StringEquals")
                            .get("iam:PermissionsBoundary").get("Ref").asString()).isEqualTo("BrokerBoundary"));
        }
        assertThat(statements).filteredOn(s -> s.get("Effect").asString().equals("Allow"))
                .noneSatisfy(s -> assertThat(actions(s)).containsAnyOf("iam:AttachRolePolicy",
                        "iam:DeleteRolePermissionsBoundary", "iam:CreatePolicyVersion", "iam:UpdateAssumeRolePolicy"));
    }

    @Test
    void theBoundaryAllowsEverythingABrokerRoleIsGranted() {
        List<String> allowed = new ArrayList<>();
        template.at("/Resources/BrokerBoundary/Properties/PolicyDocument/Statement")
                .forEach(s -> allowed.addAll(actions(s)));
        List<String> granted = desired("arn:aws:iam::111122223333:role/AcmeKeel").role().permissions().statements()
                .stream().flatMap(s -> s.actions().stream()).toList();

        assertThat(granted).isNotEmpty();
        assertThat(allowed).containsAll(granted);
    }

    private static List<String> actions(JsonNode statement) {
        JsonNode action = statement.get("Action");
        List<String> names = new ArrayList<>();
        if (action.isArray()) {
            action.forEach(a -> names.add(a.asString()));
        } else {
            names.add(action.asString());
        }
        return names;
    }

    private static DesiredState desired(String roleArn) {
        ProvisioningTarget target = new ProvisioningTarget(UUID.randomUUID(), "orders", "us-east-1",
                new ProvisioningTarget.Account(roleArn.split(":")[4], roleArn, "ext"), "vpc-1",
                List.of(new ProvisioningTarget.Zone("us-east-1a", "subnet-a")), WalType.S3, 3, null, null, "m7g.large",
                3, "1.7.4", Inventory.EMPTY, new ProvisioningTarget.Agent(null, "https://keel.example/ingest", "t"));
        return DesiredState.of(target, new DesiredState.Defaults("https://keel.example/ingest", 10, 1024),
                new BootImage("ami-1", "111122223333.dkr.ecr.us-east-1.amazonaws.com/ecr-public/keel/keel-broker@sha256:"
                        + "ab".repeat(32)));
    }
}
