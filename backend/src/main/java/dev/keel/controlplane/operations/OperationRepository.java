package dev.keel.controlplane.operations;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import dev.keel.controlplane.operations.Operation.Step;
import dev.keel.controlplane.operations.Operation.StepState;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.provisioner.StaleStep;
import tools.jackson.databind.json.JsonMapper;

@Repository
class OperationRepository {

    private final JdbcClient jdbc;
    private final JsonMapper json;

    OperationRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    void insert(UUID id, UUID organizationId, UUID instanceId, OperationType type, String requestedBy, String reason,
                String previousState, Object previousSpec, List<String> steps) {
        jdbc.sql("""
                INSERT INTO operations (id, organization_id, instance_id, type, state, requested_by, reason,
                                        previous_state, previous_spec)
                VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?::jsonb)
                """)
                .params(id, organizationId, instanceId, type.name(), requestedBy, reason, previousState,
                        previousSpec == null ? null : json.writeValueAsString(previousSpec))
                .update();
        for (int position = 0; position < steps.size(); position++) {
            jdbc.sql("INSERT INTO operation_steps (operation_id, position, name, state) VALUES (?, ?, ?, 'PENDING')")
                    .params(id, position, steps.get(position))
                    .update();
        }
    }

    Optional<Operation> find(UUID id) {
        return jdbc.sql("SELECT * FROM operations WHERE id = ?").param(id).query(this::operation).optional()
                .map(this::withSteps);
    }

    Optional<Operation> find(UUID organizationId, UUID id) {
        return find(id).filter(op -> op.organizationId().equals(organizationId));
    }

    boolean finishedSince(UUID instanceId, Instant since) {
        return jdbc.sql("SELECT count(*) FROM operations WHERE instance_id = ? AND finished_at >= ?")
                .params(instanceId, Timestamp.from(since)).query(Long.class).single() > 0;
    }

    Map<UUID, OperationType> launchingBrokers(List<UUID> instanceIds, Instant endedSince) {
        return jdbc.sql("""
                SELECT DISTINCT ON (instance_id) instance_id, type FROM operations
                WHERE instance_id = ANY(?) AND type IN ('CREATE', 'UPDATE', 'REPAIR')
                  AND (state = 'RUNNING' OR state = 'SUCCEEDED' AND finished_at >= ?)
                ORDER BY instance_id, created_at DESC
                """)
                .params(instanceIds.toArray(UUID[]::new), Timestamp.from(endedSince))
                .query((rs, row) -> Map.entry(rs.getObject("instance_id", UUID.class),
                        OperationType.valueOf(rs.getString("type")))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    boolean launchingBrokersNow(UUID instanceId) {
        return jdbc.sql("""
                SELECT count(*) FROM operations
                WHERE instance_id = ? AND type IN ('CREATE', 'UPDATE', 'REPAIR') AND state = 'RUNNING'
                """).param(instanceId).query(Long.class).single() > 0;
    }

    boolean hasUnfinished(UUID instanceId) {
        return jdbc.sql("SELECT count(*) FROM operations WHERE instance_id = ? AND state IN ('PENDING', 'RUNNING')")
                .param(instanceId).query(Long.class).single() > 0;
    }

    List<Operation> listForInstance(UUID organizationId, UUID instanceId, Cursor after, int limit) {
        List<Operation> operations = Cursor.bind(jdbc.sql("""
                SELECT * FROM operations
                WHERE organization_id = :org AND instance_id = :instance
                  AND (CAST(:afterTime AS timestamptz) IS NULL OR (created_at, id) < (:afterTime, :afterId))
                ORDER BY created_at DESC, id DESC
                LIMIT :limit
                """), after)
                .param("org", organizationId)
                .param("instance", instanceId)
                .param("limit", limit)
                .query(this::operation)
                .list();
        if (operations.isEmpty()) {
            return operations;
        }
        Map<UUID, List<Step>> steps = jdbc.sql("SELECT * FROM operation_steps WHERE operation_id IN (:ids) ORDER BY position")
                .param("ids", operations.stream().map(Operation::id).toList())
                .query((rs, n) -> Map.entry(rs.getObject("operation_id", UUID.class), step(rs)))
                .list().stream()
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
        return operations.stream().map(op -> withSteps(op, steps.getOrDefault(op.id(), List.of()))).toList();
    }

    /** PENDING → RUNNING; false if the operation is no longer pending (cancelled, or already started). */
    boolean markRunning(UUID id) {
        return jdbc.sql("UPDATE operations SET state = 'RUNNING', started_at = now() WHERE id = ? AND state = 'PENDING'")
                .param(id).update() == 1;
    }

    boolean cancelIfPending(UUID id) {
        int updated = jdbc.sql("""
                UPDATE operations SET state = 'CANCELLED', finished_at = now() WHERE id = ? AND state = 'PENDING'
                """).param(id).update();
        jdbc.sql("UPDATE operation_steps SET state = 'SKIPPED' WHERE operation_id = ? AND state = 'PENDING'")
                .param(id).update();
        return updated == 1;
    }

    /**
     * Takes the operation's fence for a new run by {@code worker}: from now on no earlier run can write. Empty when
     * the operation has finished or was cancelled: there is nothing to run.
     */
    OptionalLong takeFence(UUID id, String worker) {
        return jdbc.sql("""
                UPDATE operations SET fence = fence + 1, fence_holder = ?, progressed_at = now()
                WHERE id = ? AND state IN ('PENDING', 'RUNNING') RETURNING fence
                """).params(worker, id).query(Long.class).optional()
                .map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    /**
     * Locks the operation's row for the writes of the run holding {@code fence}, until the transaction ends, and records
     * that the run moves the operation on: a run that takes the fence meanwhile waits for them. Throws
     * {@link StaleStep} when another run has taken it already.
     */
    void holdFence(UUID id, long fence) {
        if (jdbc.sql("UPDATE operations SET progressed_at = now() WHERE id = ? AND fence = ?").params(id, fence)
                .update() == 0) {
            throw stale(id, fence);
        }
    }

    /** Throws {@link StaleStep} when a run other than the one holding {@code fence} has taken the operation. */
    void checkFence(UUID id, long fence) {
        if (jdbc.sql("SELECT fence FROM operations WHERE id = ?").param(id).query(Long.class).single() != fence) {
            throw stale(id, fence);
        }
    }

    private StaleStep stale(UUID id, long fence) {
        return jdbc.sql("SELECT fence, fence_holder FROM operations WHERE id = ?").param(id)
                .query((rs, n) -> new StaleStep("Operation " + id + " was taken over by run " + rs.getLong("fence")
                        + " of " + rs.getString("fence_holder") + "; run " + fence
                        + " stops without changing anything more.")).single();
    }

    /**
     * How many operations, pending or running, no run has moved on for longer than {@code stuckAfter} while none waits
     * to look again later: nothing is working on them.
     */
    long stuck(Duration stuckAfter) {
        return jdbc.sql("""
                SELECT count(*) FROM operations o
                WHERE o.state IN ('PENDING', 'RUNNING')
                  AND coalesce(o.progressed_at, o.created_at) < now() - ? * interval '1 millisecond'
                  AND NOT EXISTS (SELECT 1 FROM operation_steps s WHERE s.operation_id = o.id AND s.next_look_at > now())
                """).param(stuckAfter.toMillis()).query(Long.class).single();
    }

    /** The step starts a run: a new attempt, unless it resumes a wait an earlier run began. */
    void stepStarted(UUID id, int position, String worker) {
        jdbc.sql("""
                UPDATE operation_steps
                SET state = 'RUNNING', attempts = attempts + CASE WHEN waiting_for IS NULL THEN 1 ELSE 0 END,
                    last_worker = ?, started_at = coalesce(started_at, now())
                WHERE operation_id = ? AND position = ?
                """).params(worker, id, position).update();
    }

    void stepSucceeded(UUID id, int position) {
        jdbc.sql("""
                UPDATE operation_steps SET state = 'SUCCEEDED', finished_at = now(), message = NULL, waiting_for = NULL,
                                           waiting_since = NULL, next_look_at = NULL
                WHERE operation_id = ? AND position = ?
                """).params(id, position).update();
    }

    /** The step waits for {@code what} since {@code since}, freeing its worker until {@code nextLook}. */
    void stepWaiting(UUID id, int position, String what, Instant since, Instant nextLook) {
        jdbc.sql("""
                UPDATE operation_steps SET waiting_for = ?, waiting_since = ?, next_look_at = ?,
                                           message = 'Waiting for ' || ? || ' since ' || ? || '; next look at ' || ? || '.'
                WHERE operation_id = ? AND position = ?
                """).params(what, Timestamp.from(since), Timestamp.from(nextLook), what, since.toString(),
                        nextLook.toString(), id, position).update();
    }

    /** A run of the step failed and is to be retried: the next run is a new attempt. */
    void stepRetrying(UUID id, int position, String message) {
        jdbc.sql("""
                UPDATE operation_steps SET message = ?, waiting_for = NULL, waiting_since = NULL, next_look_at = NULL
                WHERE operation_id = ? AND position = ?
                """).params(message, id, position).update();
    }

    void stepFailed(UUID id, int position, String message) {
        jdbc.sql("""
                UPDATE operation_steps SET state = 'FAILED', finished_at = now(), message = ?
                WHERE operation_id = ? AND position = ?
                """).params(message, id, position).update();
    }

    void finish(UUID id, OperationState state, Operation.Error error) {
        jdbc.sql("""
                UPDATE operations SET state = ?, finished_at = now(), error_code = ?, error_message = ?
                WHERE id = ? AND state = 'RUNNING'
                """)
                .params(state.name(), error == null ? null : error.code(), error == null ? null : error.message(), id)
                .update();
        if (state == OperationState.FAILED) {
            jdbc.sql("UPDATE operation_steps SET state = 'SKIPPED' WHERE operation_id = ? AND state = 'PENDING'")
                    .param(id).update();
        }
    }

    private Operation withSteps(Operation op) {
        return withSteps(op, jdbc.sql("SELECT * FROM operation_steps WHERE operation_id = ? ORDER BY position")
                .param(op.id()).query((rs, n) -> step(rs)).list());
    }

    private static Operation withSteps(Operation op, List<Step> steps) {
        int done = (int) steps.stream().filter(s -> s.state() == StepState.SUCCEEDED || s.state() == StepState.SKIPPED).count();
        return new Operation(op.id(), op.organizationId(), op.instanceId(), op.type(), op.state(), steps,
                new Operation.Progress(done, steps.size()), op.error(), op.requestedBy(), op.reason(), op.previousState(),
                op.previousSpec(), op.createdAt(), op.startedAt(), op.finishedAt());
    }

    private Operation operation(ResultSet rs, int row) throws SQLException {
        String errorCode = rs.getString("error_code");
        String previousSpec = rs.getString("previous_spec");
        return new Operation(rs.getObject("id", UUID.class), rs.getObject("organization_id", UUID.class),
                rs.getObject("instance_id", UUID.class), OperationType.valueOf(rs.getString("type")),
                OperationState.valueOf(rs.getString("state")), List.of(), null,
                errorCode == null ? null : new Operation.Error(errorCode, rs.getString("error_message")),
                rs.getString("requested_by"), rs.getString("reason"), rs.getString("previous_state"),
                previousSpec == null ? null : json.readTree(previousSpec),
                instant(rs, "created_at"), instant(rs, "started_at"), instant(rs, "finished_at"));
    }

    private static Step step(ResultSet rs) throws SQLException {
        return new Step(rs.getInt("position"), rs.getString("name"), StepState.valueOf(rs.getString("state")),
                rs.getInt("attempts"), instant(rs, "started_at"), instant(rs, "finished_at"), rs.getString("message"),
                rs.getString("waiting_for"), instant(rs, "waiting_since"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp value = rs.getTimestamp(column);
        return value == null ? null : value.toInstant();
    }
}
