package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;

import dev.keel.provisioner.ListenerSecurity;
import dev.keel.provisioner.WalType;

/** Every node spec the provisioner writes into a launch template follows the contract the agent reads it by. */
class NodeSpecContractTest {

    @Test
    void theNodeSpecOfEveryWalTypeFollowsTheContract() throws IOException {
        JsonSchema schema;
        try (InputStream in = Files.newInputStream(Path.of("../contract/node-spec.schema.json"))) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        }
        List<DesiredState.NfsEndpoint> endpoints = List.of(
                new DesiredState.NfsEndpoint(0, "svm-0.fs-0.fsx.us-east-1.amazonaws.com", "/wal"));
        for (WalType wal : WalType.values()) {
            DesiredState desired = DesiredStateTest.of(wal, 3, wal == WalType.EBS ? 1 : 3);
            String spec = BootScript.nodeSpec(new String(Base64.getDecoder().decode(desired.launchTemplate()
                    .userDataBase64(wal == WalType.FSWAL ? endpoints : List.of())), StandardCharsets.UTF_8));
            assertThat(schema.validate(spec, InputFormat.JSON)).as(wal + ": " + spec).isEmpty();
        }
        String secure = BootScript.nodeSpec(new String(Base64.getDecoder().decode(DesiredStateTest.of(
                Targets.target(DesiredStateTest.ID, WalType.S3, 3, Targets.zones(3), Targets.ACCOUNT, "vpc-1")
                        .withListenerSecurity(ListenerSecurity.SASL_SSL)).launchTemplate().userDataBase64(List.of())),
                StandardCharsets.UTF_8));
        assertThat(schema.validate(secure, InputFormat.JSON)).as("SASL_SSL: " + secure).isEmpty();
        // The agent gets its certificate with the ingest token: a secure spec without one could never start.
        assertThat(schema.validate(secure.replaceFirst("\"ingestToken\":\"[^\"]*\"", "\"ingestToken\":null"),
                InputFormat.JSON)).as("SASL_SSL without an ingest token").isNotEmpty();
        String unmountable = BootScript.nodeSpec(new String(Base64.getDecoder().decode(DesiredStateTest.of(
                WalType.FSWAL, 3, 3).launchTemplate().userDataBase64(List.of())), StandardCharsets.UTF_8));
        assertThat(schema.validate(unmountable, InputFormat.JSON)).as("FSWAL without NFS endpoints").isNotEmpty();
    }
}
