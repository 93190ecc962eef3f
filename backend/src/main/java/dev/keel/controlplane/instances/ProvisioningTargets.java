package dev.keel.controlplane.instances;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.cloudaccounts.CloudAccount;
import dev.keel.controlplane.cloudaccounts.CloudAccounts;
import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.provisioner.BootImage;
import dev.keel.provisioner.ProvisioningTarget;

/** Describes an instance to a provisioning driver. */
@Component
class ProvisioningTargets {

    private final CloudAccounts accounts;
    private final SizingCatalogs catalogs;
    private final InstanceTokens tokens;
    private final InstanceRepository instances;

    ProvisioningTargets(CloudAccounts accounts, SizingCatalogs catalogs, InstanceTokens tokens,
                        InstanceRepository instances) {
        this.accounts = accounts;
        this.catalogs = catalogs;
        this.tokens = tokens;
        this.instances = instances;
    }

    ProvisioningTarget of(Instance instance) {
        return of(instance, null);
    }

    /** {@code boot}: what its brokers boot, when known before the instance has a launch template (a create's plan). */
    ProvisioningTarget of(Instance instance, BootImage boot) {
        // Registered, also if deleted since: a deleted instance's kept data is deleted through the account's role.
        CloudAccount account = accounts.registered(instance.organizationId(), instance.cloudAccountId());
        InstanceSpec spec = instance.spec();
        SizingCatalog.Sizing sizing = catalogs.version(spec.catalogVersion()).sizingOf(spec.aku());
        return new ProvisioningTarget(instance.id(), instance.name(), instance.region(),
                account(account), spec.network().vpcId(),
                spec.network().subnets().stream()
                        .map(s -> new ProvisioningTarget.Zone(s.availabilityZone(), s.subnetId())).toList(),
                spec.wal().type(), spec.aku(),
                spec.fsx() == null ? null : spec.fsx().throughputMBps(), spec.fsx() == null ? null : spec.fsx().count(),
                sizing.instanceType(), sizing.brokerCount(), spec.brokerVersion(), instance.inventory(),
                new ProvisioningTarget.Agent(boot, null, tokens.of(instance.id())), instance.dataRetainedUntil(), spec.network().s3GatewayEndpoint(),
                // From the records: an instance being created has nothing in the account yet that would show them.
                instances.subnetsOfOtherInstances(instance.id(), account.awsAccountId(), instance.region(),
                        spec.network().vpcId()),
                spec.listenerSecurity());
    }

    static ProvisioningTarget.Account account(CloudAccount account) {
        return new ProvisioningTarget.Account(account.awsAccountId(), account.roleArn(), account.externalId());
    }
}
