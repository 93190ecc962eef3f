package dev.keel.controlplane.kafkaaccess;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The {@code kafka_topic_changes} and {@code kafka_topic_inventory} tables. */
@Component
class TopicRows {

    private static final TypeReference<LinkedHashMap<String, String>> CONFIGS = new TypeReference<>() {
    };

    enum Action { CREATE, UPDATE, DELETE }

    /** A change asked through the API: pending while {@code error} is null, else refused by Kafka. */
    record Change(UUID id, String topicName, Action action, Integer partitions, Integer replicationFactor,
                  Map<String, String> configs, String error, Instant createdAt) {
    }

    /** A topic as the agent last reported it. */
    record Observed(String name, int partitions, int replicationFactor, Map<String, String> configs, Long sizeBytes,
                    Instant observedAt) {
    }

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final RowMapper<Change> changes;
    private final RowMapper<Observed> observed;

    TopicRows(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
        this.changes = (rs, n) -> new Change(rs.getObject("id", UUID.class), rs.getString("topic_name"),
                Action.valueOf(rs.getString("action")), (Integer) rs.getObject("partitions"),
                (Integer) rs.getObject("replication_factor"), json.readValue(rs.getString("configs"), CONFIGS),
                rs.getString("error"), rs.getTimestamp("created_at").toInstant());
        this.observed = (rs, n) -> new Observed(rs.getString("name"), rs.getInt("partitions"),
                rs.getInt("replication_factor"), json.readValue(rs.getString("configs"), CONFIGS),
                (Long) rs.getObject("size_bytes"), rs.getTimestamp("observed_at").toInstant());
    }

    /** Serializes changes to one instance's topics, so a name is checked and taken by one request at a time. */
    void lockTopics(UUID instanceId) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(?, 19))").param("kafka-topics:" + instanceId)
                .query(Object.class).single();
    }

    /** Changes not yet applied and those Kafka refused, oldest first. */
    List<Change> changes(UUID instanceId) {
        return jdbc.sql("SELECT * FROM kafka_topic_changes WHERE instance_id = ? ORDER BY created_at, id")
                .param(instanceId).query(changes).list();
    }

    List<Change> pending(UUID instanceId) {
        return jdbc.sql("SELECT * FROM kafka_topic_changes WHERE instance_id = ? AND error IS NULL ORDER BY created_at, id")
                .param(instanceId).query(changes).list();
    }

    List<Observed> observed(UUID instanceId) {
        return jdbc.sql("SELECT * FROM kafka_topic_inventory WHERE instance_id = ? ORDER BY name")
                .param(instanceId).query(observed).list();
    }

    /** Records a change; a refused change of the same topic is superseded by it. */
    void insert(UUID instanceId, String topic, Action action, Integer partitions, Integer replicationFactor,
                Map<String, String> configs) {
        jdbc.sql("DELETE FROM kafka_topic_changes WHERE instance_id = ? AND topic_name = ? AND error IS NOT NULL")
                .params(instanceId, topic).update();
        // clock_timestamp(): changes recorded in one transaction keep their order.
        jdbc.sql("""
                INSERT INTO kafka_topic_changes (id, instance_id, topic_name, action, partitions, replication_factor,
                                                 configs, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?::jsonb, clock_timestamp())
                """).params(UUID.randomUUID(), instanceId, topic, action.name(), partitions, replicationFactor,
                        json.writeValueAsString(configs == null ? Map.of() : configs)).update();
    }

    /** The agent applied the change: it is done. */
    void applied(UUID instanceId, UUID changeId) {
        jdbc.sql("DELETE FROM kafka_topic_changes WHERE instance_id = ? AND id = ?").params(instanceId, changeId).update();
    }

    void refused(UUID instanceId, UUID changeId, String error) {
        jdbc.sql("UPDATE kafka_topic_changes SET error = ? WHERE instance_id = ? AND id = ? AND error IS NULL")
                .params(error, instanceId, changeId).update();
    }

    /** The agent's latest inventory replaces the one before. */
    void replaceObserved(UUID instanceId, List<Observed> topics) {
        jdbc.sql("DELETE FROM kafka_topic_inventory WHERE instance_id = ?").param(instanceId).update();
        for (Observed topic : topics) {
            jdbc.sql("""
                    INSERT INTO kafka_topic_inventory (instance_id, name, partitions, replication_factor, configs,
                                                       size_bytes, observed_at)
                    VALUES (?, ?, ?, ?, ?::jsonb, ?, ?)
                    """).params(instanceId, topic.name(), topic.partitions(), topic.replicationFactor(),
                            json.writeValueAsString(topic.configs()), topic.sizeBytes(),
                            Timestamp.from(topic.observedAt())).update();
        }
    }
}
