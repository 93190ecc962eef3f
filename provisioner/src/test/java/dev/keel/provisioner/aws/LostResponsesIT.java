package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;

/**
 * Every create call's request reaches AWS and its answer is lost: the step fails not knowing what it made, and its
 * retry finds it by its tags and name instead of making it again. Each WAL type ends with no resource made twice
 * and, after the delete, none left. Against LocalStack, which (unlike AWS) ignores the client tokens of RunInstances
 * and CreateVpcEndpoint, and
 * the FSx emulator.
 */
class LostResponsesIT {

    /** Every call that creates something, by service. */
    static final Set<String> CREATES = Set.of("S3:CreateBucket", "Iam:CreateRole", "Iam:CreateInstanceProfile",
            "Ec2:CreateSecurityGroup", "Ec2:CreateLaunchTemplate", "Ec2:CreateVolume", "Ec2:RunInstances",
            "Ec2:CreateVpcEndpoint",
            "FSx:CreateFileSystem", "FSx:CreateStorageVirtualMachine", "FSx:CreateVolume");

    static final LocalStackAccount aws = new LocalStackAccount();

    static {
        InternetRoute.addTo(aws.ec2, aws.vpcId);
    }

    @Test
    void noResourceIsMadeTwiceAndNoneIsLeftBehind() {
        for (WalType wal : WalType.values()) {
            LostResponses lost = new LostResponses(CREATES);
            try (AwsProvisioningDriver driver = new AwsProvisioningDriver(aws.settings().withInterceptors(List.of(lost))
                    .withEndpoints(AwsEndpoints.all(aws.endpoint).withFsx(LocalStackAccount.fsxEndpoint())))) {
                int zones = wal == WalType.EBS ? 1 : 3;
                ProvisioningTarget target = new ProvisioningTarget(UUID.randomUUID(), "lost-" + wal.name().toLowerCase(),
                        LocalStackAccount.REGION, aws.account, aws.vpcId, aws.zones.subList(0, zones), wal, 3,
                        wal == WalType.FSWAL ? 384 : null, wal == WalType.FSWAL ? 2 : null, "t3.micro", 3, "4.1.0",
                        Inventory.EMPTY, null).withS3GatewayEndpoint(S3GatewayEndpointMode.CREATE);

                ProvisioningTarget created = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, target);

                Map<String, Long> made = driver.observe(created).resources().stream()
                        .collect(Collectors.groupingBy(r -> r.type() + " " + r.logicalName(), Collectors.counting()));
                assertThat(made).as(wal + ": one of each").allSatisfy((what, count) -> assertThat(count).as(what).isOne());
                assertThat(made.keySet()).as(wal + ": all of them").containsAll(
                        driver.plan(ChangeKind.CREATE, target, false).stream()
                                .map(c -> c.type() + " " + c.logicalName()).toList());
                assertThat(lost.lost()).as(wal + ": every create of this WAL lost its answer once")
                        .containsAll(createsOf(wal));

                AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, created);
                assertThat(driver.sweep(created)).as(wal + ": nothing left").isEmpty();
            }
        }
    }

    private static Set<String> createsOf(WalType wal) {
        Function<String, Boolean> used = call -> switch (call) {
            case "Ec2:CreateVolume" -> wal == WalType.EBS;
            case "FSx:CreateFileSystem", "FSx:CreateStorageVirtualMachine", "FSx:CreateVolume" -> wal == WalType.FSWAL;
            default -> true;
        };
        return CREATES.stream().filter(used::apply).collect(Collectors.toSet());
    }
}
