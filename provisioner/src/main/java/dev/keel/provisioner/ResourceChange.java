package dev.keel.provisioner;

/** One change an apply would make, like a line of {@code terraform plan}. */
public record ResourceChange(Action action, String type, String logicalName, String id, String reason) {

    /** {@code REPLACE}: delete and create anew under the same name, as {@code terraform plan}'s {@code -/+}. */
    public enum Action { CREATE, UPDATE, REPLACE, DELETE }

    @Override
    public String toString() {
        String sign = switch (action) {
            case CREATE -> "+";
            case UPDATE -> "~";
            case REPLACE -> "-/+";
            case DELETE -> "-";
        };
        return sign + " " + type + " " + logicalName + (id == null ? "" : " (" + id + ")") + ": " + reason;
    }
}
