package dev.keel.controlplane.shared;

/** Boolean query parameters, written as JSON writes a boolean: Spring's own binding would also take yes, on and 1. */
public final class QueryFlags {

    private QueryFlags() {
    }

    /** {@code value} as a boolean; null when the parameter was left out. */
    public static Boolean parse(String name, String value) {
        if (value == null) {
            return null;
        }
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.validation(name, "must be true or false");
        };
    }
}
