package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** The agent reads the node spec out of the boot script the provisioner writes (the contract's example of it). */
class BootUserDataTest {

    @Test
    void theNodeSpecComesOutOfTheProvisionersBootScript() throws Exception {
        String script = Files.readString(Path.of("../../contract/broker-user-data.example.sh"));
        String json = BootUserData.nodeSpec(script);
        assertThat(json).startsWith("{").endsWith("}").doesNotContain("\n");
        NodeSpec spec = NodeSpec.parse(json);
        assertThat(spec.instanceName()).isEqualTo("orders");
        assertThat(spec.walType()).isEqualTo(WalType.FSWAL);
    }

    @Test
    void userDataThatIsTheSpecAloneIsTakenAsItIs() {
        assertThat(BootUserData.nodeSpec("{\"instanceId\":\"x\"}")).isEqualTo("{\"instanceId\":\"x\"}");
    }

    @Test
    void aScriptWhoseSpecIsNotClosedIsRefused() {
        assertThatThrownBy(() -> BootUserData.nodeSpec("#!/bin/bash\ncat > /etc/keel/node-spec.json <<'KEEL_NODE_SPEC'\n{}"))
                .isInstanceOf(SpecException.class).hasMessageContaining("KEEL_NODE_SPEC");
    }
}
