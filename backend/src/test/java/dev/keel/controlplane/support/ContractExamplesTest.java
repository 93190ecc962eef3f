package dev.keel.controlplane.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Every example in the contract is valid against its schema, so the published documentation does not mislead. */
class ContractExamplesTest {

    private static final JsonMapper json = JsonMapper.builder().build();

    @Test
    void everyRequestAndResponseExampleMatchesItsSchema() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Map.Entry<String, JsonNode> path : ContractValidator.document().get("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                JsonNode operation = method.getValue();
                if (!operation.has("operationId")) {
                    continue;
                }
                List<JsonNode> contents = new ArrayList<>();
                if (operation.has("requestBody")) {
                    contents.add(ContractValidator.resolve(operation.get("requestBody")).get("content"));
                }
                for (JsonNode response : operation.get("responses")) {
                    JsonNode content = ContractValidator.resolve(response).get("content");
                    if (content != null) {
                        contents.add(content);
                    }
                }
                for (JsonNode content : contents) {
                    for (JsonNode media : content) {
                        for (Map.Entry<String, JsonNode> example : media.path("examples").properties()) {
                            JsonNode value = ContractValidator.resolve(example.getValue()).get("value");
                            var errors = ContractValidator.validate(media.get("schema"), json.writeValueAsString(value));
                            checked++;
                            if (!errors.isEmpty()) {
                                failures.add(operation.get("operationId").asString() + " example " + example.getKey() + ": " + errors);
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).as("examples checked").isGreaterThan(50);
        assertThat(failures).isEmpty();
    }
}
