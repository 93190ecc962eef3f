package dev.keel.broker.agent;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict checker of AutoMQ's {@code <id>@<uri>} values, written from the upstream parsers (github.com/AutoMQ/automq):
 * <ul>
 *   <li>{@code s3stream/src/main/java/com/automq/stream/utils/URIUtils.java}: {@code URI_PATTERN = ([-]?\d+)@(.+)};</li>
 *   <li>{@code s3stream/src/main/java/com/automq/stream/s3/operator/BucketURI.java}: bucket = the URI authority,
 *       {@code region} and {@code endpoint} query keys, the rest are "extensions";</li>
 *   <li>extensions read by name: {@code AwsObjectStorage} (pathStyle, authType ≤1.4.x, checksumAlgorithm),
 *       {@code BucketURI} 1.7.x (apiCallTimeoutMs, apiCallAttemptTimeoutMs), {@code ObjectWALConfig} (batchInterval,
 *       maxBytesInBatch, maxUnflushedBytes, maxInflightUploadCount, readAheadObjectCount, strictBatchLimit),
 *       {@code BlockWALService.builder(IdURI)} ≤1.4.1 (capacity, iops, iodepth, iobandwidth, timeout).</li>
 * </ul>
 * Stricter than upstream where upstream is lenient: a key upstream would silently ignore is an error here, region is
 * required, credentials in the URI (accessKey/secretKey) are refused.
 */
final class UpstreamUriChecker {
    private static final Pattern ID_URI = Pattern.compile("^([-]?\\d+)@(.+)$");
    private static final Set<String> BUCKET_KEYS = Set.of("region", "endpoint", "pathStyle", "authType",
            "checksumAlgorithm", "apiCallTimeoutMs", "apiCallAttemptTimeoutMs");
    private static final Set<String> OBJECT_WAL_KEYS = Set.of("batchInterval", "maxBytesInBatch", "maxUnflushedBytes",
            "maxInflightUploadCount", "readAheadObjectCount", "strictBatchLimit");
    private static final Set<String> FILE_WAL_KEYS = Set.of("capacity", "iops", "iodepth", "iobandwidth", "timeout");
    private static final Set<String> NUMERIC = Set.of("capacity", "iops", "iodepth", "iobandwidth", "timeout",
            "batchInterval", "maxBytesInBatch", "apiCallTimeoutMs", "apiCallAttemptTimeoutMs");
    private static final Pattern BUCKET = Pattern.compile("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$");

    enum Kind { BUCKET, WAL }

    record Parsed(int id, String scheme, String bucketOrPath, Map<String, String> query) {
    }

    private UpstreamUriChecker() {
    }

    static Parsed check(String value, Kind kind) {
        if (value.contains(",")) {
            throw new IllegalArgumentException("one URI expected (Keel renders one bucket per key): " + value);
        }
        Matcher m = ID_URI.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("missing '<id>@' prefix: " + value);
        }
        int id = Integer.parseInt(m.group(1));
        if (id < 0 || id > Short.MAX_VALUE) {
            throw new IllegalArgumentException("bucket id must fit a short and be >= 0: " + value);
        }
        URI uri;
        try {
            uri = new URI(m.group(2));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI: " + value, e);
        }
        String scheme = uri.getScheme();
        Map<String, String> query = query(uri.getRawQuery(), value);
        if ("s3".equals(scheme)) {
            String rest = uri.getRawSchemeSpecificPart();
            if (!rest.startsWith("//")) {
                throw new IllegalArgumentException("s3 URI must be s3://<bucket>: " + value);
            }
            String bucket = uri.getAuthority();
            if (bucket == null || !BUCKET.matcher(bucket).matches()) {
                throw new IllegalArgumentException("bad bucket '" + bucket + "': " + value);
            }
            if (uri.getPath() != null && !uri.getPath().isEmpty()) {
                throw new IllegalArgumentException("BucketURI has no path prefix: " + value);
            }
            String region = query.get("region");
            if (region == null || region.isEmpty()) {
                throw new IllegalArgumentException("region is required: " + value);
            }
            Set<String> allowed = kind == Kind.WAL ? union(BUCKET_KEYS, OBJECT_WAL_KEYS) : BUCKET_KEYS;
            allowedKeys(query, allowed, value);
            if (query.containsKey("endpoint")) {
                URI ep = URI.create(query.get("endpoint"));
                if (!"http".equals(ep.getScheme()) && !"https".equals(ep.getScheme())) {
                    throw new IllegalArgumentException("endpoint must be http(s): " + value);
                }
            }
            if (query.containsKey("pathStyle") && !Set.of("true", "false").contains(query.get("pathStyle"))) {
                throw new IllegalArgumentException("pathStyle must be true|false: " + value);
            }
            if (query.containsKey("authType") && !Set.of("instance", "static").contains(query.get("authType"))) {
                throw new IllegalArgumentException("authType must be instance|static: " + value);
            }
            return new Parsed(id, scheme, bucket, query);
        }
        if ("file".equals(scheme) && kind == Kind.WAL) {
            if (!uri.getRawSchemeSpecificPart().startsWith("///")) {
                throw new IllegalArgumentException("file WAL must be file:///<absolute path>: " + value);
            }
            String path = uri.getPath();
            if (path == null || path.length() < 2 || path.endsWith("/")) {
                throw new IllegalArgumentException("file WAL needs a device or file path: " + value);
            }
            allowedKeys(query, FILE_WAL_KEYS, value);
            if (!query.containsKey("capacity")) {
                throw new IllegalArgumentException("file WAL needs capacity (bytes): " + value);
            }
            return new Parsed(id, scheme, path, query);
        }
        throw new IllegalArgumentException("scheme '" + scheme + "' not accepted for " + kind + ": " + value);
    }

    private static void allowedKeys(Map<String, String> query, Set<String> allowed, String value) {
        for (var e : query.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                throw new IllegalArgumentException("query key '" + e.getKey() + "' is not read by upstream: " + value);
            }
            if (NUMERIC.contains(e.getKey()) && !e.getValue().matches("\\d+")) {
                throw new IllegalArgumentException(e.getKey() + " must be numeric: " + value);
            }
        }
    }

    private static Map<String, String> query(String raw, String value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad query pair '" + pair + "': " + value);
            }
            if (out.put(pair.substring(0, eq), pair.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("duplicate key '" + pair.substring(0, eq) + "': " + value);
            }
        }
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.HashSet<String> s = new java.util.HashSet<>(a);
        s.addAll(b);
        return s;
    }
}
