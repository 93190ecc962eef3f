package dev.keel.broker.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/** A document checked against one definition of a schema in {@code contract/} (its {@code $defs}). */
public final class ContractSchema {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ContractSchema() {
    }

    /** What is wrong with {@code json} as the contract {@code file}'s document {@code definition}. */
    public static Set<ValidationMessage> validate(Path file, String definition, String json) throws IOException {
        JsonNode contract = MAPPER.readTree(Files.readString(file));
        ObjectNode one = MAPPER.createObjectNode();
        one.set("$schema", contract.get("$schema"));
        one.set("$defs", contract.get("$defs"));
        one.put("$ref", "#/$defs/" + definition);
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(one);
        return schema.validate(MAPPER.readTree(json));
    }
}
