package dev.keel.controlplane.operations;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnore;

import tools.jackson.databind.JsonNode;

/** A change to an instance, persisted before any work starts and executed step by step by a worker. */
public record Operation(UUID id, @JsonIgnore UUID organizationId, UUID instanceId, OperationType type,
                        OperationState state, List<Step> steps, Progress progress, Error error, String requestedBy,
                        String reason, @JsonIgnore String previousState, @JsonIgnore JsonNode previousSpec, Instant createdAt,
                        Instant startedAt, Instant finishedAt) {

    public enum StepState {
        PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED
    }

    /**
     * {@code waitingFor}, {@code waitingSince}: what the step waits for in the cloud and since when, while its worker is
     * free until the next look (the message says so).
     */
    public record Step(@JsonIgnore int position, String name, StepState state, int attempts, Instant startedAt,
                       Instant finishedAt, String message, @JsonIgnore String waitingFor,
                       @JsonIgnore Instant waitingSince) {
    }

    public record Progress(int completedSteps, int totalSteps) {
    }

    public record Error(String code, String message) {
    }
}
