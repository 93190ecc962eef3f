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
import com.networknt.schema.ValidationMessage;

import dev.keel.broker.agent.ContractSchema;

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
        return ContractSchema.validate(FILE, definition, json);
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
