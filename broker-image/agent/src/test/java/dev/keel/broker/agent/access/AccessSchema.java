package dev.keel.broker.agent.access;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/** The access contract, {@code contract/agent-access.schema.json}, which the control plane is tested against too. */
final class AccessSchema {
    static final Path FILE = Path.of("../../contract/agent-access.schema.json");
    static final String DESIRED = "desiredAccess";
    static final String REPORT = "accessReport";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AccessSchema() {
    }

    /** What is wrong with {@code json} as the document {@code definition} ({@link #DESIRED} or {@link #REPORT}). */
    static Set<ValidationMessage> validate(String definition, String json) throws IOException {
        JsonNode contract = MAPPER.readTree(Files.readString(FILE));
        ObjectNode one = MAPPER.createObjectNode();
        one.set("$schema", contract.get("$schema"));
        one.set("$defs", contract.get("$defs"));
        one.put("$ref", "#/$defs/" + definition);
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(one);
        return schema.validate(MAPPER.readTree(json));
    }

    /** The property names the contract gives an object at {@code pointer} (e.g. {@code /$defs/acl}). */
    static List<String> properties(String pointer) throws IOException {
        JsonNode node = MAPPER.readTree(Files.readString(FILE)).at(pointer + "/properties");
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }
}
