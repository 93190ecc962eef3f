package dev.keel.provisioner.aws;

import java.util.List;
import java.util.Map;

/** Writes the JSON of a node spec (strings, numbers, booleans, null, lists and maps of them), keys in insertion order. */
final class Json {

    private Json() {
    }

    static String write(Map<String, ?> values) {
        StringBuilder out = new StringBuilder();
        value(out, values);
        return out.toString();
    }

    private static void value(StringBuilder out, Object value) {
        switch (value) {
            case null -> out.append("null");
            case Number n -> out.append(n);
            case Boolean b -> out.append(b);
            case Map<?, ?> map -> {
                out.append('{');
                String separator = "";
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.append(separator);
                    string(out, e.getKey().toString());
                    out.append(':');
                    value(out, e.getValue());
                    separator = ",";
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "" : ",");
                    value(out, list.get(i));
                }
                out.append(']');
            }
            default -> string(out, value.toString());
        }
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
