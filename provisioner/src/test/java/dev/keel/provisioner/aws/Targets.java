package dev.keel.provisioner.aws;

import java.util.List;
import java.util.UUID;

import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.WalType;

final class Targets {

    private Targets() {
    }

    static ProvisioningTarget target(UUID id, WalType wal, int brokers, List<ProvisioningTarget.Zone> zones,
                                     ProvisioningTarget.Account account, String vpcId) {
        return new ProvisioningTarget(id, "orders", "us-east-1", account, vpcId, zones, wal, brokers,
                wal == WalType.FSWAL ? 768 : null, wal == WalType.FSWAL ? 1 : null, "m7g.xlarge", brokers, "4.1.0",
                Inventory.EMPTY,
                new ProvisioningTarget.Agent(BOOT, "https://keel.example/ingest", "token-of-orders"));
    }

    static final String BROKER_IMAGE = "registry.example/keel-broker@sha256:" + "ab".repeat(32);
    static final BootImage BOOT = new BootImage("ami-0123456789abcdef0", BROKER_IMAGE);

    static List<ProvisioningTarget.Zone> zones(int n) {
        return List.of(new ProvisioningTarget.Zone("us-east-1a", "subnet-a"),
                new ProvisioningTarget.Zone("us-east-1b", "subnet-b"),
                new ProvisioningTarget.Zone("us-east-1c", "subnet-c")).subList(0, n);
    }

    static final ProvisioningTarget.Account ACCOUNT =
            new ProvisioningTarget.Account("111122223333", "arn:aws:iam::111122223333:role/keel", "ext-1");
}
