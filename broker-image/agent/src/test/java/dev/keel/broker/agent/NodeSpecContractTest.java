package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;

/** The agent and the node spec's contract accept and refuse the same specs. */
class NodeSpecContractTest {

    private static final JsonSchema SCHEMA = schema();

    @Test
    void specsTheAgentAcceptsFollowTheContract() throws Exception {
        for (String spec : List.of(Specs.json("EBS", "1.4.1", 3, ",\"walDevice\":\"/dev/sdf\",\"zoneCount\":1"),
                Specs.json("S3", "1.7.3", 6, ",\"zoneCount\":3"),
                Specs.json("S3", "1.7.3", 6, Specs.SASL_SSL),
                Specs.json("S3", "1.7.3", 6, ",\"listenerSecurity\":\"PLAINTEXT_UNAUTHENTICATED\""),
                Specs.json("FSWAL", "1.4.1", 3, ",\"walFileSystems\":1,\"walNfsEndpoints\":[{\"index\":0,"
                        + "\"dnsName\":\"svm-1.fs-1.fsx.us-east-1.amazonaws.com\",\"junctionPath\":\"/wal\"}]"))) {
            NodeSpec.parse(spec);
            assertThat(SCHEMA.validate(new ObjectMapper().readTree(spec))).as(spec).isEmpty();
        }
    }

    @Test
    void specsTheContractRefusesTheAgentRefuses() throws Exception {
        for (String spec : List.of(Specs.json("EBS", "1.4.1", 3, ""),
                Specs.json("FSWAL", "1.4.1", 3, ",\"walFileSystems\":1"),
                Specs.json("TAPE", "1.4.1", 3, ""),
                Specs.json("S3", "1.7.3", 0, ""),
                Specs.json("S3", "1.7.3", 3, ",\"metricsPort\":70000"),
                Specs.json("S3", "1.7.3", 3, ",\"listenerSecurity\":\"SASL_SSL\""),
                Specs.json("S3", "1.7.3", 3, Specs.SASL_SSL).replace(",\"ingestToken\":\"s3cr3t-token\"", ""),
                Specs.json("S3", "1.7.3", 3, Specs.SASL_SSL).replace("\"s3cr3t-token\"", "null"),
                Specs.json("S3", "1.7.3", 3, ",\"listenerSecurity\":\"TLS\",\"internalPort\":9094"))) {
            assertThat(SCHEMA.validate(new ObjectMapper().readTree(spec))).as(spec).isNotEmpty();
            assertThatThrownBy(() -> NodeSpec.parse(spec)).as(spec).isInstanceOf(SpecException.class);
        }
    }

    @Test
    void theAgentKnowsExactlyTheContractsKeys() {
        assertThat(NodeSpec.unknownKeys(Specs.json("S3", "1.7.3", 3, ",\"zoneCount\":3,\"metricsPort\":9464"
                + Specs.SASL_SSL))).isEmpty();
        assertThat(NodeSpec.unknownKeys(Specs.json("S3", "1.7.3", 3, ",\"shinyNewKey\":1")))
                .containsExactly("shinyNewKey");
    }

    private static JsonSchema schema() {
        try (InputStream in = NodeSpec.class.getResourceAsStream(NodeSpec.SCHEMA)) {
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
