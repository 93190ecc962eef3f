package dev.keel.broker.agent.access;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the pending topic changes in order. A change whose effect is already there is done (a pass may have
 * applied it and lost its report): a CREATE of an existing topic, a DELETE of a missing one, an UPDATE to the
 * partition count the topic has. A transient failure (timeout, leader election) ends the pass's changes without a
 * report for them, so they stay pending and the next pass tries them again in the same order; any other failure is
 * final and reported.
 */
final class TopicChanges {
    private static final Logger LOG = LoggerFactory.getLogger(TopicChanges.class);

    private TopicChanges() {
    }

    static List<AccessReport.ChangeOutcome> apply(Admin admin, List<DesiredAccess.TopicChange> changes)
            throws InterruptedException {
        List<AccessReport.ChangeOutcome> outcomes = new ArrayList<>();
        for (DesiredAccess.TopicChange change : changes) {
            String error;
            try {
                error = switch (String.valueOf(change.action())) {
                    case DesiredAccess.TopicChange.CREATE -> create(admin, change);
                    case DesiredAccess.TopicChange.UPDATE -> update(admin, change);
                    case DesiredAccess.TopicChange.DELETE -> delete(admin, change);
                    default -> "action: Kafka topics have no change '" + change.action() + "'";
                };
            } catch (ExecutionException | TimeoutException e) {
                if (AdminCalls.isTransient(e)) {
                    // Later changes may build on this one (an UPDATE after its CREATE): all wait for the next pass.
                    LOG.warn("topic change {} ({} {}) will be tried again: {}", change.id(), change.action(),
                            change.name(), AdminCalls.error(e));
                    break;
                }
                error = AdminCalls.error(e);
            }
            if (error == null) {
                LOG.info("topic change {} applied: {} {}", change.id(), change.action(), change.name());
            } else {
                LOG.warn("topic change {} ({} {}) failed: {}", change.id(), change.action(), change.name(), error);
            }
            outcomes.add(new AccessReport.ChangeOutcome(change.id(), error));
        }
        return outcomes;
    }

    private static String create(Admin admin, DesiredAccess.TopicChange change)
            throws ExecutionException, TimeoutException, InterruptedException {
        NewTopic topic = new NewTopic(change.name(), Optional.ofNullable(change.partitions()),
                Optional.ofNullable(change.replicationFactor()).map(Integer::shortValue));
        if (change.configs() != null) {
            // A null value removes an override, and a new topic has none to remove.
            Map<String, String> configs = new HashMap<>(change.configs());
            configs.values().removeIf(Objects::isNull);
            topic.configs(configs);
        }
        try {
            AdminCalls.await(admin.createTopics(List.of(topic)).all());
        } catch (ExecutionException e) {
            if (!(AdminCalls.cause(e) instanceof TopicExistsException)) {
                throw e;
            }
        }
        return null;
    }

    private static String update(Admin admin, DesiredAccess.TopicChange change)
            throws ExecutionException, TimeoutException, InterruptedException {
        TopicDescription topic;
        try {
            topic = AdminCalls.await(admin.describeTopics(List.of(change.name())).allTopicNames()).get(change.name());
        } catch (ExecutionException e) {
            // Kafka counts an unknown topic as retriable (metadata may lag); for a change it is final.
            if (AdminCalls.cause(e) instanceof UnknownTopicOrPartitionException) {
                return "topic '" + change.name() + "' does not exist";
            }
            throw e;
        }
        if (change.partitions() != null && change.partitions() != topic.partitions().size()) {
            AdminCalls.await(admin.createPartitions(Map.of(change.name(), NewPartitions.increaseTo(change.partitions())))
                    .all());
        }
        if (change.configs() != null && !change.configs().isEmpty()) {
            List<AlterConfigOp> ops = new ArrayList<>();
            change.configs().forEach((name, value) -> ops.add(value == null
                    ? new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE)
                    : new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET)));
            AdminCalls.await(admin.incrementalAlterConfigs(
                    Map.of(new ConfigResource(ConfigResource.Type.TOPIC, change.name()), ops)).all());
        }
        return null;
    }

    private static String delete(Admin admin, DesiredAccess.TopicChange change)
            throws ExecutionException, TimeoutException, InterruptedException {
        try {
            AdminCalls.await(admin.deleteTopics(List.of(change.name())).all());
        } catch (ExecutionException e) {
            if (!(AdminCalls.cause(e) instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
        }
        return null;
    }
}
