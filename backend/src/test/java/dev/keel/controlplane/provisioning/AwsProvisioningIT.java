package dev.keel.controlplane.provisioning;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.InstanceLifecycle;
import dev.keel.controlplane.support.OnboardedAccount;

/**
 * The whole path against LocalStack standing in for a customer's account: onboard it with the
 * served CloudFormation template, register it, then for each WAL type create, scale and delete an
 * instance through the API, counting the cloud resources independently after each step.
 */
class AwsProvisioningIT {

    private static BackendProcess backend;
    private static ApiClient api;
    private static OnboardedAccount account;

    @BeforeAll
    static void onboardedAccount() {
        backend = BackendProcess.start("aws-" + Fixtures.unique("worker"), OnboardedAccount.awsEnvironment())
                .withPlayedAgents();
        api = backend.api(Fixtures.EDITOR);
        account = new OnboardedAccount(api);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void ebsWalInOneZone() {
        InstanceLifecycle.run(api, account, account.instanceBody("EBS", 1, 3, null), 6, null);
    }

    @Test
    void s3WalInThreeZones() {
        InstanceLifecycle.run(api, account, account.instanceBody("S3", 3, 3, null), 6, null);
    }

    @Test
    void fsxWalInThreeZonesWithTwoFileSystems() {
        InstanceLifecycle.run(api, account,
                account.instanceBody("FSWAL", 3, 6, Map.of("throughputMBps", 384, "count", 2)), 9, 3);
    }
}
