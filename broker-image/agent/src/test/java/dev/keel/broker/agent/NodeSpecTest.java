package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeSpecTest {

    @Test
    void parsesTheProvisionersSpec() {
        NodeSpec spec = Specs.ebs1Zone();
        assertThat(spec.walType()).isEqualTo(WalType.EBS);
        assertThat(spec.walDevice()).isEqualTo("/dev/sdf");
        assertThat(spec.brokerCount()).isEqualTo(3);
        assertThat(spec.walCapacityBytes()).isEqualTo(NodeSpec.DEFAULT_WAL_CAPACITY);
        assertThat(spec.redacted()).containsEntry("ingestToken", "***");
        assertThat(spec.redacted().toString()).doesNotContain("s3cr3t");
    }

    @Test
    void toleratesUnknownKeysButNamesThem() {
        String json = Specs.json("S3", "1.7.3", 3, ",\"futureKey\":1");
        assertThat(NodeSpec.parse(json).walType()).isEqualTo(WalType.S3);
        assertThat(NodeSpec.unknownKeys(json)).containsExactly("futureKey");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "instanceId|\"instanceId\":\"" + Specs.INSTANCE + "\"|\"instanceId\":\"not-a-uuid\"",
            "walType|\"walType\":\"S3\"|\"walType\":\"NVME\"",
            "brokerVersion|\"brokerVersion\":\"1.7.3\"|\"brokerVersion\":\"latest\"",
            "aku|\"aku\":3|\"aku\":\"three\"",
            "brokerCount|\"brokerCount\":3|\"brokerCount\":0",
            "dataBucket|\"dataBucket\":\"keel-" + Specs.INSTANCE + "-data\"|\"dataBucket\":\"Bad_Bucket\"",
            "region|\"region\":\"us-east-1\"|\"region\":\"Mars\"",
            "controllerPort|\"controllerPort\":9093|\"controllerPort\":9092",
            "ingestUrl|\"ingestUrl\":\"https://ingest.keel.example/\"|\"ingestUrl\":\"ftp://x\"",
    })
    void refusesABadFieldNamingIt(String field, String good, String bad) {
        String json = Specs.json("S3", "1.7.3", 3, "");
        assertThat(json).contains(good);
        assertThatThrownBy(() -> NodeSpec.parse(json.replace(good, bad)))
                .isInstanceOf(SpecException.class)
                .hasMessageStartingWith(field + ":")
                .satisfies(e -> assertThat(((SpecException) e).field()).isEqualTo(field));
    }

    @Test
    void refusesAMissingField() {
        String json = Specs.json("S3", "1.7.3", 3, "").replace("\"opsBucket\":\"keel-" + Specs.INSTANCE + "-ops\",", "");
        assertThatThrownBy(() -> NodeSpec.parse(json)).hasMessage("opsBucket: is required");
    }

    @Test
    void ebsNeedsItsDevice() {
        assertThatThrownBy(() -> NodeSpec.parse(Specs.json("EBS", "1.4.1", 3, "")))
                .hasMessage("walDevice: is required");
        assertThatThrownBy(() -> NodeSpec.parse(Specs.json("EBS", "1.4.1", 3, ",\"walDevice\":\"sdf\"")))
                .hasMessageStartingWith("walDevice: must be a device name");
    }

    @Test
    void fswalNeedsOneNfsEndpointPerFileSystem() {
        assertThatThrownBy(() -> NodeSpec.parse(Specs.json("FSWAL", "1.4.1", 3, ",\"walFileSystems\":2")))
                .hasMessageStartingWith("walNfsEndpoints: is required for walType FSWAL");
        assertThatThrownBy(() -> NodeSpec.parse(Specs.json("FSWAL", "1.4.1", 3, ",\"walFileSystems\":2,"
                + "\"walNfsEndpoints\":[{\"index\":0,\"dnsName\":\"svm.example\",\"junctionPath\":\"/v\"}]")))
                .hasMessageStartingWith("walNfsEndpoints: must be an array of 2 entries");
        assertThatThrownBy(() -> NodeSpec.parse(Specs.json("FSWAL", "1.4.1", 3, ",\"walFileSystems\":1,"
                + "\"walNfsEndpoints\":[{\"index\":0,\"dnsName\":\"svm.example\",\"junctionPath\":\"v\"}]")))
                .hasMessageStartingWith("walNfsEndpoints[0].junctionPath: must be an absolute path");
    }

    @Test
    void listenersArePlaintextWhenTheSpecSaysNothing() {
        NodeSpec spec = Specs.s3ThreeZones();
        assertThat(spec.listenerSecurity()).isEqualTo(ListenerSecurity.PLAINTEXT_UNAUTHENTICATED);
        assertThat(spec.secured()).isFalse();
        NodeSpec secured = Specs.s3ThreeZones(Specs.SASL_SSL);
        assertThat(secured.listenerSecurity()).isEqualTo(ListenerSecurity.SASL_SSL);
        assertThat(secured.internalPort()).isEqualTo(9094);
    }

    @Test
    void saslSslNeedsTheInternalPortAndTheInstanceToken() {
        String secured = Specs.json("S3", "1.7.3", 3, Specs.SASL_SSL);
        assertThatThrownBy(() -> NodeSpec.parse(secured.replace(",\"internalPort\":9094", "")))
                .hasMessage("internalPort: is required");
        assertThatThrownBy(() -> NodeSpec.parse(secured.replace("\"internalPort\":9094", "\"internalPort\":9093")))
                .hasMessageStartingWith("internalPort: must differ");
        assertThatThrownBy(() -> NodeSpec.parse(secured.replace(",\"ingestToken\":\"s3cr3t-token\"", "")))
                .isInstanceOf(SpecException.class).hasMessageStartingWith("ingestToken: is required for listenerSecurity")
                .satisfies(e -> assertThat(((SpecException) e).field()).isEqualTo("ingestToken"));
        assertThatThrownBy(() -> NodeSpec.parse(secured.replace("SASL_SSL", "SSL")))
                .hasMessageStartingWith("listenerSecurity: must be one of");
    }

    @Test
    void refusesWhatIsNotAJsonObject() {
        assertThatThrownBy(() -> NodeSpec.parse("{not json")).hasMessageStartingWith("(document): the node spec is not valid JSON");
        assertThatThrownBy(() -> NodeSpec.parse("[]")).hasMessage("(document): the node spec must be a JSON object");
    }
}
