package dev.keel.awsemulator;

import java.util.HashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Throttling as AWS answers a caller over its request rate: {@code ThrottlingException}, which the SDK retries with
 * backoff and then raises. Armed through the admin API for one access key and operation, for a number of calls, so
 * a test throttles its own client and no one else's.
 */
final class Throttles {

    private final Map<String, Integer> armed = new HashMap<>();

    /** {@code {"accessKeyId": "...", "operation": "BatchMeterUsage", "calls": 3}}: the next 3 such calls are throttled. */
    synchronized JsonNode arm(JsonNode request) {
        String accessKey = Json.string(request, "accessKeyId");
        String operation = Json.string(request, "operation");
        JsonNode calls = request.get("calls");
        if (accessKey == null || accessKey.isBlank() || operation == null || operation.isBlank()
                || calls == null || !calls.canConvertToInt() || calls.asInt() < 0) {
            throw new IllegalArgumentException("a throttle is {\"accessKeyId\": \"...\", \"operation\": \"...\", "
                    + "\"calls\": <0 or more>}");
        }
        if (calls.asInt() == 0) {
            armed.remove(key(accessKey, operation));
        } else {
            armed.put(key(accessKey, operation), calls.asInt());
        }
        ObjectNode out = Json.object();
        out.put("accessKeyId", accessKey);
        out.put("operation", operation);
        out.put("calls", calls.asInt());
        return out;
    }

    /** Throws AWS's throttling error when a throttle is armed for this caller and operation, and counts the call. */
    synchronized void check(String accessKey, String operation) {
        String key = key(accessKey, operation);
        Integer left = armed.get(key);
        if (left == null) {
            return;
        }
        if (left == 1) {
            armed.remove(key);
        } else {
            armed.put(key, left - 1);
        }
        throw new AwsError("ThrottlingException", "Rate exceeded");
    }

    synchronized void reset() {
        armed.clear();
    }

    private static String key(String accessKey, String operation) {
        return accessKey + " " + operation;
    }
}
