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

import org.jspecify.annotations.Nullable;

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
 * Reads JSON request bodies so that one answer names every mistake it can: all unknown properties
 * and all nulls, wherever they are (Jackson stops at the first unknown property, and for records
 * only after the rest is read, and reads a null as if the property were absent), together with the
 * first value of the wrong type. Values are never coerced ({@link StrictJson}); a property takes
 * null only where its record component is {@code @Nullable} (no property of the API's requests is),
 * and a body is never null.
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
        errors.addAll(unreadableProperties(body, type));
        Object value = null;
        try {
            value = super.read(type, new Buffered(body, input.getHeaders()), hints);
        } catch (HttpMessageNotReadableException e) {
            errors.add(describe(e.getMostSpecificCause()));
        }
        if (value == null && errors.isEmpty()) {
            errors.add(new FieldError("body", "must be a JSON object, not null"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        return value;
    }

    /** Unknown properties are found on the document itself (see {@link #unreadableProperties}), not while binding. */
    @Override
    protected ObjectReader customizeReader(ObjectReader reader, JavaType javaType) {
        return reader.without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }

    private List<FieldError> unreadableProperties(byte[] body, ResolvableType type) {
        List<FieldError> found = new ArrayList<>();
        JsonNode document;
        try {
            document = mapper.readTree(body);
        } catch (JacksonException notJson) {
            return found;
        }
        collectUnreadable(document, type, "", found);
        return found;
    }

    /** Walks the document along the record types it binds to, noting every property no record component takes or that is null. */
    private static void collectUnreadable(JsonNode node, ResolvableType type, String path, List<FieldError> found) {
        Class<?> raw = type.resolve();
        if (raw == null || node == null) {
            return;
        }
        if (raw.isRecord() && node.isObject()) {
            for (String name : node.propertyNames()) {
                RecordComponent component = component(raw, name);
                String child = path.isEmpty() ? name : path + "." + name;
                if (component == null) {
                    found.add(new FieldError(child, "is not a known property"));
                } else if (node.get(name).isNull() && !component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                    found.add(new FieldError(child, "must not be null: leave the property out instead"));
                } else {
                    collectUnreadable(node.get(name), ResolvableType.forMethodReturnType(component.getAccessor()), child, found);
                }
            }
        } else if (Collection.class.isAssignableFrom(raw) && node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectUnreadable(node.get(i), type.asCollection().getGeneric(0), path + "[" + i + "]", found);
            }
        } else if (Map.class.isAssignableFrom(raw) && node.isObject()) {
            for (String name : node.propertyNames()) {
                collectUnreadable(node.get(name), type.asMap().getGeneric(1), path + "." + name, found);
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
