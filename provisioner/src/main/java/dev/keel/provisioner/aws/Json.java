package dev.keel.provisioner.aws;

import java.util.Map;

/** Writes the flat JSON of a node spec (strings, numbers, booleans, null), keys in insertion order. */
final class Json {

    private Json() {
    }

    static String write(Map<String, Object> values) {
        StringBuilder out = new StringBuilder("{");
        values.forEach((key, value) -> {
            if (out.length() > 1) {
                out.append(',');
            }
            string(out, key);
            out.append(':');
            if (value == null) {
                out.append("null");
            } else if (value instanceof Number || value instanceof Boolean) {
                out.append(value);
            } else {
                string(out, value.toString());
            }
        });
        return out.append('}').toString();
    }

    private static void string(StringBuilder out, String s) {
        out.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
