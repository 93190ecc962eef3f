package dev.keel.broker.agent;

import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The instance-level node spec the provisioner puts in the launch template's user data (one JSON object, the same
 * for every broker of the instance). Parsed and validated before anything starts: a bad spec is refused with a
 * {@link SpecException} naming the field.
 *
 * <p>Its contract is {@code contract/node-spec.schema.json}, which the provisioner's tests hold every spec it writes
 * to; the keys this agent knows are the schema's. Unknown keys are ignored (a newer provisioner may add some).
 */
public record NodeSpec(UUID instanceId, String instanceName, String region, String brokerVersion, int aku,
                       int brokerCount, WalType walType, String dataBucket, String opsBucket, int listenerPort,
                       int controllerPort, String nodeIdTag, String walDevice, Integer walFileSystems,
                       String walFileSystemTag, List<NfsEndpoint> walNfsEndpoints, URI ingestUrl, String ingestToken,
                       Integer zoneCount, URI s3Endpoint, boolean s3PathStyle, long walCapacityBytes,
                       int metricsPort, ListenerSecurity listenerSecurity, Integer internalPort) {

    /** Default WAL size: upstream's own default capacity for a block/file WAL (BlockWALService, 2 GiB). */
    public static final long DEFAULT_WAL_CAPACITY = 2L * 1024 * 1024 * 1024;
    public static final int DEFAULT_METRICS_PORT = 9464;

    /** One FSx for ONTAP file system's NFS endpoint: the SVM's NFS DNS name and the volume's junction path. */
    public record NfsEndpoint(int index, String dnsName, String junctionPath) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern BUCKET = Pattern.compile("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$");
    private static final Pattern REGION = Pattern.compile("^[a-z]{2}(-[a-z]+)+-\\d+$");
    private static final Pattern DEVICE = Pattern.compile("^/dev/[a-z0-9]+$");
    private static final Pattern DNS = Pattern.compile("^[A-Za-z0-9.-]+$");
    /** The node spec's contract, bundled with the agent. */
    static final String SCHEMA = "/contract/node-spec.schema.json";
    private static final Set<String> KNOWN = knownKeys();

    public static NodeSpec parse(String json) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new SpecException("(document)", "the node spec is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new SpecException("(document)", "the node spec must be a JSON object");
        }
        return from(root);
    }

    /** Keys the spec carries that this agent does not know (logged, never fatal). */
    public static List<String> unknownKeys(String json) {
        List<String> unknown = new ArrayList<>();
        try {
            JsonNode root = MAPPER.readTree(json);
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (!KNOWN.contains(name)) {
                    unknown.add(name);
                }
            }
        } catch (JsonProcessingException e) {
            // parse() reports it
        }
        return unknown;
    }

    static NodeSpec from(JsonNode root) {
        UUID instanceId;
        String rawId = text(root, "instanceId", true);
        try {
            instanceId = UUID.fromString(rawId);
        } catch (IllegalArgumentException e) {
            throw new SpecException("instanceId", "must be a UUID, got '" + rawId + "'");
        }
        String name = text(root, "instanceName", true);
        String region = text(root, "region", true);
        if (!REGION.matcher(region).matches()) {
            throw new SpecException("region", "must be an AWS region name such as us-east-1, got '" + region + "'");
        }
        String version = text(root, "brokerVersion", true);
        try {
            Version.parse(version);
        } catch (IllegalArgumentException e) {
            throw new SpecException("brokerVersion", e.getMessage());
        }
        int aku = integer(root, "aku", true, 1, 100_000);
        int brokerCount = integer(root, "brokerCount", true, 1, 10_000);
        String wal = text(root, "walType", true);
        WalType walType;
        try {
            walType = WalType.valueOf(wal);
        } catch (IllegalArgumentException e) {
            throw new SpecException("walType", "must be one of EBS, S3, FSWAL, got '" + wal + "'");
        }
        String dataBucket = bucket(root, "dataBucket");
        String opsBucket = bucket(root, "opsBucket");
        int listenerPort = integer(root, "listenerPort", true, 1, 65535);
        int controllerPort = integer(root, "controllerPort", true, 1, 65535);
        if (listenerPort == controllerPort) {
            throw new SpecException("controllerPort", "must differ from listenerPort (" + listenerPort + ")");
        }
        String nodeIdTag = text(root, "nodeIdTag", false);
        if (nodeIdTag == null) {
            nodeIdTag = "byoc:node-id";
        }
        String walDevice = text(root, "walDevice", walType == WalType.EBS);
        if (walDevice != null && !DEVICE.matcher(walDevice).matches()) {
            throw new SpecException("walDevice", "must be a device name such as /dev/sdf, got '" + walDevice + "'");
        }
        Integer fileSystems = null;
        String fsTag = null;
        List<NfsEndpoint> endpoints = List.of();
        if (walType == WalType.FSWAL) {
            fileSystems = integer(root, "walFileSystems", true, 1, 64);
            fsTag = text(root, "walFileSystemTag", false);
            endpoints = nfsEndpoints(root, fileSystems);
        }
        URI ingest = uri(root, "ingestUrl", true);
        String token = text(root, "ingestToken", false);
        Integer zones = root.has("zoneCount") ? integer(root, "zoneCount", true, 1, 3) : null;
        if (zones != null && zones != 1 && zones != 3) {
            throw new SpecException("zoneCount", "must be 1 or 3, got " + zones);
        }
        URI s3Endpoint = uri(root, "s3Endpoint", false);
        boolean pathStyle = root.has("s3PathStyle") && bool(root, "s3PathStyle");
        long capacity = root.has("walCapacityBytes") ? longValue(root, "walCapacityBytes", 64L * 1024 * 1024)
                : DEFAULT_WAL_CAPACITY;
        int metricsPort = root.has("metricsPort") ? integer(root, "metricsPort", true, 1, 65535)
                : DEFAULT_METRICS_PORT;
        ListenerSecurity security = listenerSecurity(root);
        Integer internalPort = null;
        if (security == ListenerSecurity.SASL_SSL) {
            internalPort = integer(root, "internalPort", true, 1, 65535);
            if (internalPort == listenerPort || internalPort == controllerPort) {
                throw new SpecException("internalPort", "must differ from listenerPort (" + listenerPort
                        + ") and controllerPort (" + controllerPort + ")");
            }
            if (token == null) {
                throw new SpecException("ingestToken", "is required for listenerSecurity SASL_SSL: the broker's "
                        + "certificate is issued by the control plane at ingestUrl to the holder of the instance token");
            }
        } else if (root.has("internalPort")) {
            internalPort = integer(root, "internalPort", true, 1, 65535);
        }
        return new NodeSpec(instanceId, name, region, version, aku, brokerCount, walType, dataBucket, opsBucket,
                listenerPort, controllerPort, nodeIdTag, walDevice, fileSystems, fsTag, endpoints, ingest, token,
                zones, s3Endpoint, pathStyle, capacity, metricsPort, security, internalPort);
    }

    /** Absent means plaintext: launch templates written before listeners were secured carry no such key. */
    private static ListenerSecurity listenerSecurity(JsonNode root) {
        String value = text(root, "listenerSecurity", false);
        if (value == null) {
            return ListenerSecurity.PLAINTEXT_UNAUTHENTICATED;
        }
        try {
            return ListenerSecurity.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new SpecException("listenerSecurity", "must be one of SASL_SSL, PLAINTEXT_UNAUTHENTICATED, got '"
                    + value + "'");
        }
    }

    public boolean secured() {
        return listenerSecurity == ListenerSecurity.SASL_SSL;
    }

    private static Set<String> knownKeys() {
        try (var schema = NodeSpec.class.getResourceAsStream(SCHEMA)) {
            if (schema == null) {
                throw new IllegalStateException("The agent's copy of " + SCHEMA + " is missing");
            }
            Set<String> keys = new java.util.TreeSet<>();
            MAPPER.readTree(schema).get("properties").fieldNames().forEachRemaining(keys::add);
            return Set.copyOf(keys);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("The agent's copy of " + SCHEMA + " is unreadable", e);
        }
    }

    /** The parsed upstream version. */
    public Version version() {
        return Version.parse(brokerVersion);
    }

    /** Node spec JSON without the ingest token (for logs and status files). */
    public Map<String, Object> redacted() {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = MAPPER.convertValue(this, Map.class);
        if (map.get("ingestToken") != null) {
            map.put("ingestToken", "***");
        }
        return map;
    }

    private static List<NfsEndpoint> nfsEndpoints(JsonNode root, int fileSystems) {
        JsonNode node = root.get("walNfsEndpoints");
        if (node == null || node.isNull()) {
            throw new SpecException("walNfsEndpoints", "is required for walType FSWAL: one {index, dnsName, "
                    + "junctionPath} per file system (the SVM's NFS DNS name and the WAL volume's junction path)");
        }
        if (!node.isArray() || node.size() != fileSystems) {
            throw new SpecException("walNfsEndpoints", "must be an array of " + fileSystems
                    + " entries (walFileSystems), got " + (node.isArray() ? node.size() + " entries" : node.getNodeType()));
        }
        List<NfsEndpoint> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode e = node.get(i);
            String field = "walNfsEndpoints[" + i + "]";
            if (!e.isObject()) {
                throw new SpecException(field, "must be an object");
            }
            int index = integer(e, "index", field + ".index", 0, fileSystems - 1);
            if (index != i) {
                throw new SpecException(field + ".index", "must be " + i + " (entries in index order), got " + index);
            }
            String dns = textAt(e, "dnsName", field + ".dnsName");
            if (!DNS.matcher(dns).matches()) {
                throw new SpecException(field + ".dnsName", "must be a DNS name or IP address, got '" + dns + "'");
            }
            String junction = textAt(e, "junctionPath", field + ".junctionPath");
            if (!junction.startsWith("/") || junction.contains("..") || junction.contains(" ")) {
                throw new SpecException(field + ".junctionPath", "must be an absolute path such as /keel_wal_0, got '"
                        + junction + "'");
            }
            out.add(new NfsEndpoint(index, dns, junction));
        }
        return List.copyOf(out);
    }

    private static String bucket(JsonNode root, String field) {
        String value = text(root, field, true);
        if (!BUCKET.matcher(value).matches() || value.contains("..")) {
            throw new SpecException(field, "must be an S3 bucket name (3-63 lowercase letters, digits, dots, hyphens),"
                    + " got '" + value + "'");
        }
        return value;
    }

    private static URI uri(JsonNode root, String field, boolean required) {
        String value = text(root, field, required);
        if (value == null) {
            return null;
        }
        try {
            URI uri = new URI(value);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new SpecException(field, "must be an http(s) URL, got '" + value + "'");
            }
            return uri;
        } catch (java.net.URISyntaxException e) {
            throw new SpecException(field, "must be an http(s) URL, got '" + value + "'");
        }
    }

    private static String text(JsonNode root, String field, boolean required) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw new SpecException(field, "is required");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw new SpecException(field, "must be a string, got " + node.getNodeType());
        }
        String value = node.asText().trim();
        if (value.isEmpty()) {
            if (required) {
                throw new SpecException(field, "must not be empty");
            }
            return null;
        }
        return value;
    }

    private static String textAt(JsonNode obj, String key, String field) {
        JsonNode node = obj.get(key);
        if (node == null || !node.isTextual() || node.asText().isBlank()) {
            throw new SpecException(field, "is required (a non-empty string)");
        }
        return node.asText().trim();
    }

    private static int integer(JsonNode root, String field, boolean required, int min, int max) {
        return integer(root, field, field, min, max);
    }

    private static int integer(JsonNode obj, String key, String field, int min, int max) {
        JsonNode node = obj.get(key);
        if (node == null || node.isNull()) {
            throw new SpecException(field, "is required");
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
            throw new SpecException(field, "must be an integer, got " + node);
        }
        int value = node.asInt();
        if (value < min || value > max) {
            throw new SpecException(field, "must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    private static long longValue(JsonNode root, String field, long min) {
        JsonNode node = root.get(field);
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < min) {
            throw new SpecException(field, "must be an integer of at least " + min + ", got " + node);
        }
        return node.asLong();
    }

    private static boolean bool(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (!node.isBoolean()) {
            throw new SpecException(field, "must be true or false, got " + node);
        }
        return node.asBoolean();
    }
}
