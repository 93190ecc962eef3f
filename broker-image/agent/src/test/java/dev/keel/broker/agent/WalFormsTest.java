package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WalFormsTest {

    @Test
    void ebsAndFswalRunOnlyUpTo14x() {
        assertThat(WalForms.check(WalType.EBS, Version.parse("1.4.1"))).isEqualTo(WalForms.Form.BLOCK_DEVICE);
        assertThat(WalForms.check(WalType.FSWAL, Version.parse("1.2.0"))).isEqualTo(WalForms.Form.FILE);
        assertThatThrownBy(() -> WalForms.check(WalType.EBS, Version.parse("1.5.0")))
                .isInstanceOf(SpecException.class)
                .hasMessageContaining("walType: AutoMQ 1.5.0 cannot run the EBS WAL")
                .hasMessageContaining("1.2.0 up to (not including) 1.5.0")
                .hasMessageContaining("choose walType S3");
        assertThatThrownBy(() -> WalForms.check(WalType.FSWAL, Version.parse("1.7.4")))
                .hasMessageContaining("cannot run the FSWAL WAL");
    }

    @Test
    void s3WalFrom12() {
        assertThat(WalForms.supports(Version.parse("1.7.4"), WalForms.Form.S3_OBJECT)).isTrue();
        assertThat(WalForms.supports(Version.parse("1.2.0"), WalForms.Form.S3_OBJECT)).isTrue();
        assertThatThrownBy(() -> WalForms.check(WalType.S3, Version.parse("1.1.0")))
                .hasMessageContaining("starts at 1.2.0");
    }

    @Test
    void preReleasesCountAsTheirRelease() {
        assertThat(WalForms.supports(Version.parse("1.5.0-rc0"), WalForms.Form.BLOCK_DEVICE)).isFalse();
        assertThat(WalForms.supports(Version.parse("1.4.1-bitnami"), WalForms.Form.BLOCK_DEVICE)).isTrue();
    }

    @Test
    void rendererRefusesTheImpossibleCombinationToo() {
        NodeSpec spec = NodeSpec.parse(Specs.json("EBS", "1.6.0", 3, ",\"walDevice\":\"/dev/sdf\""));
        var peers = Specs.peers(spec, java.util.List.of("us-east-1a"));
        assertThatThrownBy(() -> BrokerConfigRenderer.render(spec, Specs.identity(peers, 0), peers, null,
                BrokerConfigRenderer.Options.ec2())).hasMessageContaining("cannot run the EBS WAL");
    }
}
