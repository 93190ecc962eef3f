package dev.keel.provisioner.aws;

import tools.jackson.databind.json.JsonMapper;

/** The JSON the provisioner writes (policies, the node spec): members in declaration or insertion order. */
public final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** The JSON of member {@code name} of the object {@code json}, or null when it has none. */
    public static String member(String json, String name) {
        var node = MAPPER.readTree(json).get(name);
        return node == null || node.isNull() ? null : MAPPER.writeValueAsString(node);
    }

    /** Whether two JSON documents say the same, however AWS formatted the one it returns. */
    public static boolean same(String a, String b) {
        return a != null && b != null && MAPPER.readTree(a).equals(MAPPER.readTree(b));
    }
}
