package dev.keel.controlplane.shared;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpInputMessage;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.stereotype.Component;

import com.fasterxml.jackson.annotation.JsonProperty;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads JSON request bodies so that one answer names every mistake it can: all unknown properties,
 * wherever they are (Jackson stops at the first, and for records only after the rest is read),
 * together with the first value of the wrong type. Values are never coerced ({@link StrictJson}).
 */
@Component
class JsonBodies extends JacksonJsonHttpMessageConverter {

    private final JsonMapper mapper;

    JsonBodies(JsonMapper mapper) {
        super(mapper);
        this.mapper = mapper;
    }

    @Override
    public Object read(ResolvableType type, HttpInputMessage input, Map<String, Object> hints) throws IOException {
        byte[] body = input.getBody().readAllBytes();
        List<FieldError> errors = new ArrayList<>();
        unknownProperties(body, type).forEach(field -> errors.add(new FieldError(field, "is not a known property")));
        Object value = null;
        try {
            value = super.read(type, new Buffered(body, input.getHeaders()), hints);
        } catch (HttpMessageNotReadableException e) {
            errors.add(describe(e.getMostSpecificCause()));
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        return value;
    }

    /** Unknown properties are found on the document itself (see {@link #unknownProperties}), not while binding. */
    @Override
    protected ObjectReader customizeReader(ObjectReader reader, JavaType javaType) {
        return reader.without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    private List<String> unknownProperties(byte[] body, ResolvableType type) {
        List<String> found = new ArrayList<>();
        JsonNode document;
        try {
            document = mapper.readTree(body);
        } catch (JacksonException notJson) {
            return found;
        }
        collectUnknown(document, type, "", found);
        return found;
    }

    /** Walks the document along the record types it binds to, noting every property no record component takes. */
    private static void collectUnknown(JsonNode node, ResolvableType type, String path, List<String> found) {
        Class<?> raw = type.resolve();
        if (raw == null || node == null) {
            return;
        }
        if (raw.isRecord() && node.isObject()) {
            for (String name : node.propertyNames()) {
                RecordComponent component = component(raw, name);
                String child = path.isEmpty() ? name : path + "." + name;
                if (component == null) {
                    found.add(child);
                } else {
                    collectUnknown(node.get(name), ResolvableType.forMethodReturnType(component.getAccessor()), child, found);
                }
            }
        } else if (Collection.class.isAssignableFrom(raw) && node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectUnknown(node.get(i), type.asCollection().getGeneric(0), path + "[" + i + "]", found);
            }
        } else if (Map.class.isAssignableFrom(raw) && node.isObject()) {
            for (String name : node.propertyNames()) {
                collectUnknown(node.get(name), type.asMap().getGeneric(1), path + "." + name, found);
            }
        }
    }

    private static RecordComponent component(Class<?> record, String property) {
        for (RecordComponent component : record.getRecordComponents()) {
            JsonProperty renamed = component.getAnnotation(JsonProperty.class);
            String name = renamed != null && !renamed.value().isEmpty() ? renamed.value() : component.getName();
            if (name.equals(property)) {
                return component;
            }
        }
        return null;
    }

    private static FieldError describe(Throwable cause) {
        if (cause instanceof StreamReadException syntax) {
            String reason = syntax.getOriginalMessage() == null ? "" : syntax.getOriginalMessage().split("[:\n]", 2)[0];
            return new FieldError("body", "is not a valid JSON document" + (reason.isBlank() ? "" : " (" + reason + ")"));
        }
        if (cause instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()) {
            return new FieldError(path(mismatch), "must be " + expected(mismatch.getTargetType()));
        }
        if (cause instanceof JacksonException json && !json.getPath().isEmpty()) {
            return new FieldError(path(json), "has the wrong type or format");
        }
        if (cause instanceof JacksonException) {
            return new FieldError("body", "is not a valid JSON document");
        }
        return new FieldError("body", "is required: send a JSON document");
    }

    private static String expected(Class<?> target) {
        if (target == null) {
            return "of another type";
        }
        if (target.isEnum()) {
            return "one of " + List.of(target.getEnumConstants());
        }
        if (target == Integer.class || target == int.class || target == Long.class || target == long.class) {
            return "an integer (no fraction, not a string)";
        }
        if (target == Double.class || target == double.class) {
            return "a number (not a string)";
        }
        if (target == String.class) {
            return "a string";
        }
        if (target == Boolean.class || target == boolean.class) {
            return "true or false";
        }
        if (target == UUID.class) {
            return "a UUID";
        }
        if (Collection.class.isAssignableFrom(target) || target.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String path(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : e.getPath()) {
            if (ref.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getPropertyName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "body" : path.toString();
    }

    /** The body, already read, for the converter to bind. */
    private record Buffered(byte[] body, HttpHeaders headers) implements HttpInputMessage {

        @Override
        public InputStream getBody() {
            return new ByteArrayInputStream(body);
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }
    }
}
