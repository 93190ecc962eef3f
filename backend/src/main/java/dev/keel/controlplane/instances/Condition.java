package dev.keel.controlplane.instances;

import java.time.Instant;

/** A status condition in the Kubernetes style: {@code lastTransitionTime} moves only when {@code status} flips. */
public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
}
