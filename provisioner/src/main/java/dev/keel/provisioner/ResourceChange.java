package dev.keel.provisioner;

/** One change an apply would make, like a line of {@code terraform plan}. */
public record ResourceChange(Action action, String type, String logicalName, String id, String reason) {

    public enum Action { CREATE, UPDATE, DELETE }

    @Override
    public String toString() {
        String sign = switch (action) {
            case CREATE -> "+";
            case UPDATE -> "~";
            case DELETE -> "-";
        };
        return sign + " " + type + " " + logicalName + (id == null ? "" : " (" + id + ")") + ": " + reason;
    }
}
