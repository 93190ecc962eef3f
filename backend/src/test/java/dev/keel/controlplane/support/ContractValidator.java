package dev.keel.controlplane.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Checks every API response a test receives against {@code openapi.yaml}: the status must be one
 * the operation documents, and the body must match that response's schema. So the contract the
 * console and CLI are generated from cannot drift from what the server does.
 */
public final class ContractValidator {

    private static final String DOCUMENT = "https://keel.dev/openapi.json";
    private static final JsonMapper json = JsonMapper.builder().build();
    private static final JsonNode root = load();
    private static final List<Route> routes = routes();
    private static final JsonSchemaFactory schemas = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.schemaLoaders(loaders -> loaders.schemas(Map.of(DOCUMENT, json.writeValueAsString(root)))));
    private static final Map<String, JsonSchema> compiled = new ConcurrentHashMap<>();

    private ContractValidator() {
    }

    static void verify(String method, String path, ApiClient.Response response) {
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        Route route = routes.stream().filter(r -> r.method.equals(method) && r.pattern.matcher(bare).matches())
                .findFirst()
                .orElseThrow(() -> new AssertionError("The contract has no operation " + method + " " + bare));
        JsonNode documented = route.operation.get("responses").get(String.valueOf(response.status()));
        if (documented == null) {
            throw new AssertionError(route + " answered " + response.status() + ", which the contract does not document: "
                    + response.body());
        }
        JsonNode content = resolve(documented).get("content");
        if (content == null || response.body().isBlank()) {
            return;
        }
        String type = response.header("Content-Type").orElse("").split(";")[0].trim();
        JsonNode media = content.get(type);
        if (media == null) {
            throw new AssertionError(route + " answered " + response.status() + " as " + type + "; the contract says "
                    + content.propertyNames());
        }
        if (!type.endsWith("json")) {
            return;
        }
        Set<ValidationMessage> errors = validate(media.get("schema"), response.body());
        if (!errors.isEmpty()) {
            throw new AssertionError(route + " answered " + response.status() + " with a body that breaks the contract: "
                    + errors + "\nbody: " + response.body());
        }
    }

    /** Validates a JSON text against a schema of the contract (its {@code $ref}s resolve inside the contract). */
    static Set<ValidationMessage> validate(JsonNode schemaNode, String body) {
        String schema = json.writeValueAsString(schemaNode).replace("\"$ref\":\"#/", "\"$ref\":\"" + DOCUMENT + "#/");
        return compiled.computeIfAbsent(schema, schemas::getSchema).validate(body, InputFormat.JSON);
    }

    /** Checks a body against the contract's {@code Problem} schema; the messages of what breaks it. */
    public static Set<ValidationMessage> problemViolations(String body) {
        return validate(root.at("/components/schemas/Problem"), body);
    }

    static JsonNode document() {
        return root;
    }

    static JsonNode resolve(JsonNode node) {
        JsonNode ref = node.get("$ref");
        return ref == null ? node : resolve(root.at(ref.asString().substring(1)));
    }

    private record Route(String method, String template, Pattern pattern, JsonNode operation) {
        @Override
        public String toString() {
            return operation.get("operationId").asString() + " (" + method + " " + template + ")";
        }
    }

    private static List<Route> routes() {
        List<Route> routes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : root.get("paths").properties()) {
            Pattern pattern = Pattern.compile("/api/v1" + path.getKey().replaceAll("\\{[^}]+}", "[^/]+"));
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                if (method.getValue().has("operationId")) {
                    routes.add(new Route(method.getKey().toUpperCase(), path.getKey(), pattern, method.getValue()));
                }
            }
        }
        return routes;
    }

    private static JsonNode load() {
        try (InputStream in = ContractValidator.class.getResourceAsStream("/openapi.yaml")) {
            return new YAMLMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
