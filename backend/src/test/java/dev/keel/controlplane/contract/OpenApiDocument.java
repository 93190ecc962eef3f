package dev.keel.controlplane.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The API contract as tests read it: every operation with its method, path and required role. */
final class OpenApiDocument {

    private static final Set<String> METHODS = Set.of("get", "post", "put", "patch", "delete");

    final JsonNode root;

    OpenApiDocument() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("/openapi.yaml")) {
            root = new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : root.get("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                if (METHODS.contains(method.getKey())) {
                    JsonNode op = method.getValue();
                    operations.add(new Operation(op.get("operationId").asString(), method.getKey().toUpperCase(),
                            path.getKey(), op.get("x-required-role").asString()));
                }
            }
        }
        return operations;
    }

    record Operation(String id, String method, String path, String requiredRole) {

        String expand(Map<String, String> parameters) {
            String expanded = path;
            for (Map.Entry<String, String> parameter : parameters.entrySet()) {
                expanded = expanded.replace("{" + parameter.getKey() + "}", parameter.getValue());
            }
            if (expanded.contains("{")) {
                throw new AssertionError("No value for a path parameter of " + id + ": " + path);
            }
            return expanded;
        }

        boolean hasPathParameters() {
            return path.contains("{");
        }

        @Override
        public String toString() {
            return id + " (" + method + " " + path + ")";
        }
    }
}
