package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.WalType;

/**
 * The boot script is a contract with the agent and the local runner, which read the node spec back out of it:
 * {@code contract/broker-user-data.example.sh} is what the provisioner writes, and their tests read the same file.
 * Rewrite it with {@code -Dkeel.update-contract=true} after a deliberate change, and read the diff.
 */
class BootScriptTest {

    private static final Path EXAMPLE = Path.of("../contract/broker-user-data.example.sh");

    @Test
    void theContractsExampleIsWhatTheProvisionerWrites() throws Exception {
        DesiredState desired = DesiredStateTest.of(WalType.FSWAL, 3, 3);
        String script = new String(Base64.getDecoder().decode(desired.launchTemplate().userDataBase64(List.of(
                new DesiredState.NfsEndpoint(0, "svm-0.fs-0.fsx.us-east-1.amazonaws.com", "/wal")))),
                StandardCharsets.UTF_8);
        if (Boolean.getBoolean("keel.update-contract")) {
            Files.writeString(EXAMPLE, script);
        }
        assertThat(script).isEqualTo(Files.readString(EXAMPLE));
        assertThat(BootScript.brokerImage(script)).isEqualTo(Targets.BROKER_IMAGE);
        assertThat(Json.member(BootScript.nodeSpec(script), "walNfsEndpoints")).contains("svm-0.fs-0");
    }

    @Test
    void anImageInAPrivateEcrRegistryIsPulledAfterLoggingInWithTheInstanceRole() {
        String ecr = "111122223333.dkr.ecr.eu-west-1.amazonaws.com/keel/keel-broker@sha256:" + "ab".repeat(32);
        assertThat(BootScript.render(ecr, "{}")).contains("aws ecr get-login-password --region eu-west-1 | docker "
                + "login --username AWS --password-stdin 111122223333.dkr.ecr.eu-west-1.amazonaws.com\n");
        assertThat(BootScript.render(Targets.BROKER_IMAGE, "{}")).doesNotContain("docker login");
    }

    @Test
    void onlyAnImagePinnedByDigestIsRun() {
        for (String image : new String[]{"registry.example/keel-broker:1.7.4", "registry.example/keel-broker@sha256:ab",
                "registry.example/keel'; reboot; '@sha256:" + "ab".repeat(32), null}) {
            assertThatThrownBy(() -> BootScript.render(image, "{}")).as(image)
                    .isInstanceOfSatisfying(ProvisioningException.class,
                            e -> assertThat(e.code()).isEqualTo("NO_BROKER_IMAGE"));
        }
    }

    @Test
    void userDataThatIsNoBootScriptCarriesNoSpec() {
        assertThat(BootScript.nodeSpec("{\"instanceId\":\"x\"}")).isNull();
        assertThat(BootScript.brokerImage("{\"instanceId\":\"x\"}")).isNull();
    }
}
