package dev.keel.awsemulator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Tags of file systems, SVMs and volumes, by ARN. */
record FsxTags(FsxStore store) {

    private static final Pattern TAG_TEXT = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

    JsonNode tagResource(JsonNode request) {
        FsxStore.Resource resource = store.byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        Map<String, String> tags = parse(request);
        if (tags.isEmpty()) {
            throw new AwsError("BadRequest", "Tags must contain at least one tag");
        }
        Map<String, String> merged = new LinkedHashMap<>(resource.changes().tags);
        merged.putAll(tags);
        if (merged.size() > 50) {
            throw new AwsError("BadRequest", "A resource can have at most 50 tags");
        }
        resource.changes().tags.putAll(tags);
        return Json.object();
    }

    JsonNode untagResource(JsonNode request) {
        FsxStore.Resource resource = store.byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        List<String> keys = Json.strings(request, "TagKeys");
        if (keys.isEmpty()) {
            throw new AwsError("BadRequest", "TagKeys must contain at least one key");
        }
        keys.forEach(resource.changes().tags::remove);
        return Json.object();
    }

    JsonNode listTags(JsonNode request) {
        FsxStore.Resource resource = store.byArn(Json.requiredString(request, "ResourceARN", "BadRequest"));
        List<Map.Entry<String, String>> entries = List.copyOf(resource.changes().tags.entrySet());
        ObjectNode out = (ObjectNode) FsxRequests.page(request, entries, "Tags", e -> tag(e.getKey(), e.getValue()));
        if (entries.isEmpty()) {
            out.remove("Tags"); // the model's Tags list has min 1: AWS leaves it out
        }
        return out;
    }

    /** The request's {@code Tags}, checked as AWS checks them. */
    static Map<String, String> parse(JsonNode request) {
        List<JsonNode> list = Json.list(request, "Tags");
        if (list.size() > 50) {
            throw new AwsError("BadRequest", "At most 50 tags are allowed");
        }
        Map<String, String> tags = new LinkedHashMap<>();
        for (JsonNode tag : list) {
            String key = Json.string(tag, "Key");
            String value = Json.string(tag, "Value");
            if (key == null || key.isEmpty() || key.length() > 128 || !TAG_TEXT.matcher(key).matches()) {
                throw new AwsError("BadRequest", "Invalid tag key '" + key + "'");
            }
            if (value == null || value.length() > 256 || !TAG_TEXT.matcher(value).matches()) {
                throw new AwsError("BadRequest", "Invalid value for tag '" + key + "'");
            }
            if (key.startsWith("aws:")) {
                throw new AwsError("BadRequest", "Tag keys starting with aws: are reserved");
            }
            tags.put(key, value);
        }
        return tags;
    }

    static ArrayNode list(Map<String, String> tags) {
        ArrayNode list = Json.array();
        tags.forEach((k, v) -> list.add(tag(k, v)));
        return list;
    }

    private static ObjectNode tag(String key, String value) {
        ObjectNode tag = Json.object();
        tag.put("Key", key);
        tag.put("Value", value);
        return tag;
    }
}
