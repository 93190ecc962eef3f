package dev.keel.broker.agent;

/** A node spec (or a spec/version combination) the agent refuses; the message names the field. */
public class SpecException extends RuntimeException {
    private final String field;

    public SpecException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
