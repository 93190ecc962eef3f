package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;

/**
 * For every WAL type and every kind of change, the changes the steps apply, concatenated, are exactly the plan made
 * just before: create, scale up and down, an FSx change, a repair, a delete; the S3 gateway endpoint included. Against
 * LocalStack and the FSx emulator.
 */
class PlanEqualsApplyIT {

    static final LocalStackAccount aws = new LocalStackAccount();
    static final ImpairedStatuses STATUSES = new ImpairedStatuses();
    @AutoClose
    static final AwsProvisioningDriver driver = new AwsProvisioningDriver(aws.settings()
            .withEndpoints(AwsEndpoints.all(aws.endpoint).withFsx(LocalStackAccount.fsxEndpoint()))
            .withInterceptors(List.of(STATUSES)));

    static {
        InternetRoute.addTo(aws.ec2, aws.vpcId);
    }

    @Test
    void ebsInOneZone() {
        ProvisioningTarget t = planThenApply(ChangeKind.CREATE, target(WalType.EBS, 1, 2, null, null));
        t = planThenApply(ChangeKind.UPDATE, t.resized(3, 3, null, null));
        t = planThenApply(ChangeKind.UPDATE, t.resized(2, 2, null, null));
        STATUSES.impaired().add(t0(t).machineId());
        t = planThenApply(ChangeKind.REPAIR, t);
        planThenApply(ChangeKind.DELETE, t);
    }

    @Test
    void s3InThreeZones() {
        ProvisioningTarget t = planThenApply(ChangeKind.CREATE, target(WalType.S3, 3, 3, null, null));
        t = planThenApply(ChangeKind.UPDATE, t.resized(4, 4, null, null));
        String lost = t0(t).machineId();
        aws.ec2.terminateInstances(b -> b.instanceIds(lost));
        t = planThenApply(ChangeKind.REPAIR, t);
        planThenApply(ChangeKind.DELETE, t);
    }

    @Test
    void fsxInThreeZones() {
        ProvisioningTarget t = planThenApply(ChangeKind.CREATE, target(WalType.FSWAL, 3, 3, 384, 1));
        t = planThenApply(ChangeKind.UPDATE, t.resized(4, 4, 768, 2));
        t = planThenApply(ChangeKind.UPDATE, t.resized(3, 3, 768, 1));
        STATUSES.impaired().add(t0(t).machineId());
        t = planThenApply(ChangeKind.REPAIR, t);
        planThenApply(ChangeKind.DELETE, t);
    }

    /** Plans {@code kind}, then applies it step by step as the operation runner does, and compares. */
    private static ProvisioningTarget planThenApply(ChangeKind kind, ProvisioningTarget target) {
        List<ResourceChange> plan = driver.plan(kind, target, true);
        List<ResourceChange> applied = new ArrayList<>();
        ProvisioningTarget current = target;
        for (String step : driver.steps(kind, target)) {
            AwsProvisioningDriver.AppliedStep done = driver.applyStep(step, current);
            applied.addAll(done.changes());
            current = current.withObserved(done.inventory());
        }
        assertThat(plan).as(kind + " " + target.walType() + " changes something").isNotEmpty();
        assertThat(applied).as(kind + " " + target.walType()).containsExactlyElementsOf(plan);
        assertThat(driver.plan(kind == ChangeKind.DELETE ? ChangeKind.DELETE : ChangeKind.REPAIR,
                current, true)).as("nothing left to do").isEmpty();
        return current;
    }

    private static Inventory.Broker t0(ProvisioningTarget t) {
        return t.observed().brokers().getFirst();
    }

    private static ProvisioningTarget target(WalType wal, int zones, int brokers, Integer fsxThroughput, Integer fsxCount) {
        return new ProvisioningTarget(UUID.randomUUID(), "plan-" + wal.name().toLowerCase(), LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones.subList(0, zones), wal, brokers, fsxThroughput, fsxCount, "t3.micro",
                brokers, "4.1.0", Inventory.EMPTY, null).withS3GatewayEndpoint(S3GatewayEndpointMode.CREATE);
    }
}
