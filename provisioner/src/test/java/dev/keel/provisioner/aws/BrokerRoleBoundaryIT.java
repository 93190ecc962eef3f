package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;
import software.amazon.awssdk.services.iam.model.Role;

/**
 * Every broker role the provisioner creates carries the account's permissions boundary, whatever the WAL type, as
 * IAM itself reports it (set by CreateRole, not put again after it); a boundary taken off behind Keel's back shows
 * in a repair's plan and is put back. Against
 * LocalStack (and the FSx emulator, which a FSWAL instance's observation reads).
 */
class BrokerRoleBoundaryIT {

    static final LocalStackAccount aws = new LocalStackAccount();
    static final CallRecorder calls = new CallRecorder();
    @AutoClose
    static final AwsProvisioningDriver driver = new AwsProvisioningDriver(aws.settings()
            .withEndpoints(AwsEndpoints.all(aws.endpoint).withFsx(LocalStackAccount.fsxEndpoint()))
            .withInterceptors(List.of(calls)));

    @ParameterizedTest
    @EnumSource(WalType.class)
    void theBrokerRoleIsCreatedWithTheBoundaryAndARemovedBoundaryIsRestored(WalType wal) {
        int zones = wal == WalType.EBS ? 1 : 3;
        ProvisioningTarget t = new ProvisioningTarget(UUID.randomUUID(), "boundary-" + wal.name().toLowerCase(),
                LocalStackAccount.REGION, aws.account, aws.vpcId, aws.zones.subList(0, zones), wal, 3,
                wal == WalType.FSWAL ? 384 : null, wal == WalType.FSWAL ? 1 : null, "t3.micro", 3, "4.1.0",
                Inventory.EMPTY, null);
        DesiredState desired = driver.desired(t);
        String boundary = "arn:aws:iam::" + aws.account.awsAccountId() + ":policy/keel/"
                + aws.account.roleArn().substring(aws.account.roleArn().lastIndexOf('/') + 1) + "-broker-boundary";
        assertThat(desired.role().permissionsBoundary()).isEqualTo(boundary);
        assertThat(aws.iam.getPolicy(b -> b.policyArn(boundary)).policy().path()).as("the account's boundary")
                .isEqualTo("/keel/");

        calls.take();
        t = t.withObserved(driver.apply("create-broker-role", t));

        assertThat(calls.take()).as("CreateRole sets the boundary, so it is not put again").contains("CreateRole")
                .doesNotContain("PutRolePermissionsBoundary");
        assertThat(role(desired).permissionsBoundary()).as("read back from IAM").isNotNull()
                .satisfies(b -> assertThat(b.permissionsBoundaryArn()).isEqualTo(boundary));
        assertThat(roleChanges(t)).isEmpty();

        aws.iam.deleteRolePermissionsBoundary(b -> b.roleName(desired.role().roleName()));
        assertThat(role(desired).permissionsBoundary()).isNull();
        assertThat(roleChanges(t)).containsExactly("~ iam-role broker-role (" + desired.role().roleName()
                + "): restore its permissions boundary " + boundary);

        calls.take();
        t = t.withObserved(driver.apply("create-broker-role", t));
        assertThat(calls.take()).contains("PutRolePermissionsBoundary");
        assertThat(role(desired).permissionsBoundary().permissionsBoundaryArn()).isEqualTo(boundary);
        assertThat(roleChanges(t)).isEmpty();

        driver.apply("delete-broker-role", t);
        assertThat(driver.sweep(t)).isEmpty();
    }

    private static Role role(DesiredState desired) {
        return aws.iam.getRole(b -> b.roleName(desired.role().roleName())).role();
    }

    /** What a repair would change on the broker role (the instance's other resources were never created here). */
    private static List<String> roleChanges(ProvisioningTarget t) {
        return driver.plan(ChangeKind.REPAIR, t, true).stream()
                .filter(c -> c.type().equals(ObservedState.IAM_ROLE)).map(ResourceChange::toString).toList();
    }
}
