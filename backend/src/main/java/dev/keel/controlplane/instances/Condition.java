package dev.keel.controlplane.instances;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A status condition in the Kubernetes style: {@code lastTransitionTime} moves only when {@code status} flips. */
public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {

    /** Whether the instance's resources match its spec version: the last operation's outcome. */
    public static final String READY = "Ready";
    /** Whether something is wrong now: drift found in the cloud or a broker reporting unwell. */
    public static final String DEGRADED = "Degraded";
    /**
     * Whether broker agents stopped reporting, since when: a fact about the reports, not the machines (Keel replaces a
     * broker only on EC2's evidence), so it is a condition of its own.
     */
    public static final String AGENTS_SILENT = "AgentsSilent";

    /**
     * {@code conditions} with {@code type} set, in the order of their types' names whichever changed last, so that
     * the API, the CLI and the console list them alike every time; the transition time is kept when the status does
     * not change. Returns the same list when nothing changes, so callers can skip the write.
     */
    static List<Condition> set(List<Condition> conditions, String type, String status, String reason, String message,
                               Instant now) {
        Condition current = conditions.stream().filter(c -> c.type().equals(type)).findFirst().orElse(null);
        if (current != null && current.status().equals(status) && current.reason().equals(reason)
                && current.message().equals(message)) {
            return conditions;
        }
        Instant transition = current != null && current.status().equals(status) ? current.lastTransitionTime() : now;
        List<Condition> updated = new ArrayList<>(conditions);
        updated.remove(current);
        updated.add(new Condition(type, status, reason, message, transition));
        updated.sort(Comparator.comparing(Condition::type));
        return List.copyOf(updated);
    }
}
