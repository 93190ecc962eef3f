package dev.keel.awsemulator;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON helpers. Requests are read strictly by the AWS model's types: a member of the wrong JSON
 * type is a {@code SerializationException}, as a real AWS JSON service answers.
 */
final class Json {

    static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return object();
        }
        try {
            JsonNode node = MAPPER.readTree(body);
            if (node == null || !node.isObject()) {
                throw AwsError.serialization("The request body must be a JSON object");
            }
            return node;
        } catch (tools.jackson.core.JacksonException e) {
            throw AwsError.serialization("The request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    static byte[] bytes(JsonNode node) {
        return MAPPER.writeValueAsBytes(node);
    }

    /** A string member, or null when absent. */
    static String string(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isString()) {
            throw AwsError.serialization("Member " + member + " must be a string");
        }
        return node.stringValue();
    }

    static String requiredString(JsonNode parent, String member, String errorCode) {
        String value = string(parent, member);
        if (value == null || value.isEmpty()) {
            throw new AwsError(errorCode, "The parameter " + member + " is required.");
        }
        return value;
    }

    static Integer integer(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw AwsError.serialization("Member " + member + " must be an integer");
        }
        return node.intValue();
    }

    static Long longValue(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw AwsError.serialization("Member " + member + " must be a long");
        }
        return node.longValue();
    }

    static Boolean bool(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isBoolean()) {
            throw AwsError.serialization("Member " + member + " must be a boolean");
        }
        return node.booleanValue();
    }

    /** A structure member, or a missing node (never null) when absent. */
    static JsonNode struct(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return MAPPER.missingNode();
        }
        if (!node.isObject()) {
            throw AwsError.serialization("Member " + member + " must be a structure");
        }
        return node;
    }

    /** A list member; empty when absent. */
    static List<JsonNode> list(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw AwsError.serialization("Member " + member + " must be a list");
        }
        List<JsonNode> items = new ArrayList<>();
        node.forEach(items::add);
        return items;
    }

    static List<String> strings(JsonNode parent, String member) {
        List<String> values = new ArrayList<>();
        for (JsonNode item : list(parent, member)) {
            if (!item.isString()) {
                throw AwsError.serialization("Member " + member + " must be a list of strings");
            }
            values.add(item.stringValue());
        }
        return values;
    }

    /** An AWS JSON timestamp: epoch seconds, possibly fractional (that is how the SDK sends it). */
    static Instant timestamp(JsonNode parent, String member) {
        JsonNode node = parent.get(member);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isNumber()) {
            throw AwsError.serialization("Member " + member + " must be a timestamp (epoch seconds)");
        }
        BigDecimal seconds = node.decimalValue();
        long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
        long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
        return Instant.ofEpochSecond(whole, nanos);
    }

    /** Writes a timestamp the way AWS JSON services do: epoch seconds with milliseconds. */
    static BigDecimal epochSeconds(Instant instant) {
        return BigDecimal.valueOf(instant.toEpochMilli()).movePointLeft(3);
    }

    static <T> ArrayNode arrayOf(List<T> items, Function<T, JsonNode> render) {
        ArrayNode array = array();
        items.forEach(item -> array.add(render.apply(item)));
        return array;
    }
}
