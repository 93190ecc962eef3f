package dev.keel.controlplane.kafkaaccess;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import org.springframework.stereotype.Service;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.FieldError;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.ProblemType;

/**
 * Topics through the API: the agent's last inventory overlaid with the changes asked and not yet applied. A change is
 * recorded with its audit event in one transaction; the broker agent applies it within seconds.
 */
@Service
class KafkaTopics {

    static final String AUDIT_TYPE = "kafka-topic";
    private static final String RETENTION_MS = "retention.ms";

    private final AccessibleInstances access;
    private final Instances instances;
    private final TopicRows rows;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final TransactionTemplate snapshots;
    private final ChangeAnswers answers;

    KafkaTopics(AccessibleInstances access, Instances instances, TopicRows rows, AuditLog audit,
                TransactionTemplate transactions, ChangeAnswers answers) {
        this.access = access;
        this.instances = instances;
        this.rows = rows;
        this.audit = audit;
        this.transactions = transactions;
        this.answers = answers;
        // The inventory and the changes are read in one snapshot: an agent's report moves a topic's create into the
        // inventory in one commit, which two reads in their own snapshots can straddle and see the topic in neither.
        this.snapshots = new TransactionTemplate(transactions.getTransactionManager());
        this.snapshots.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.snapshots.setReadOnly(true);
    }

    Page<KafkaTopic> list(Caller caller, UUID instanceId, String cursor, Integer limit) {
        String after = NameCursor.decode(cursor);
        int size = Cursor.limit(limit);
        Instance instance = access.toRead(caller, instanceId);
        List<KafkaTopic> topics = new ArrayList<>(snapshots.execute(tx -> topics(instance.id())).values());
        topics.removeIf(topic -> after != null && topic.name().compareTo(after) <= 0);
        return NameCursor.page(topics.subList(0, Math.min(topics.size(), size + 1)), size, KafkaTopic::name);
    }

    KafkaTopic get(Caller caller, UUID instanceId, String name) {
        Instance instance = access.toRead(caller, instanceId);
        return snapshots.execute(tx -> find(instance.id(), name)).orElseThrow(() -> notFound(instanceId, name));
    }

    KafkaTopic create(Caller caller, UUID instanceId, KafkaTopicCreation request) {
        List<FieldError> errors = new ArrayList<>(TopicRules.name(request.name()));
        errors.addAll(TopicRules.partitions(request.partitions()));
        errors.addAll(TopicRules.configs(request.configs(), false));
        Instance instance = access.toChange(caller, instanceId);
        errors.addAll(TopicRules.replicationFactor(request.replicationFactor(), brokers(instance)));
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        String name = request.name();
        return transactions.execute(tx -> {
            rows.lockTopics(instance.id());
            Map<String, KafkaTopic> topics = topics(instance.id());
            KafkaTopic existing = topics.get(name);
            if (existing != null && existing.status() != AccessStatus.FAILED) {
                throw ApiException.of(ProblemType.NAME_TAKEN, "name", "Instance " + instanceId + " already has topic "
                        + name + (existing.status() == AccessStatus.CREATING ? " (being created)." : "."));
            }
            topics.values().stream().filter(t -> !t.name().equals(name) && t.status() != AccessStatus.FAILED)
                    .filter(t -> TopicRules.collisionKey(t.name()).equals(TopicRules.collisionKey(name))).findFirst()
                    .ifPresent(t -> {
                        throw ApiException.validation("name", "collides with topic " + t.name()
                                + ": Kafka takes '.' and '_' as the same character in topic names");
                    });
            rows.insert(instance.id(), name, TopicRows.Action.CREATE,
                    request.partitions() == null ? 1 : request.partitions(), request.replicationFactor(), request.configs());
            KafkaTopic created = find(instance.id(), name).orElseThrow();
            audit.record(caller, "kafka-topic.create", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), null, created);
            return answers.record(created);
        });
    }

    KafkaTopic update(Caller caller, UUID instanceId, String name, KafkaTopicUpdate update) {
        List<FieldError> errors = new ArrayList<>(TopicRules.partitions(update.partitions()));
        errors.addAll(TopicRules.configs(update.configs(), true));
        if (update.partitions() == null && (update.configs() == null || update.configs().isEmpty())) {
            errors.add(new FieldError("body", "must change partitions or configs"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        Instance instance = access.toChange(caller, instanceId);
        return transactions.execute(tx -> {
            rows.lockTopics(instance.id());
            KafkaTopic before = find(instance.id(), name).orElseThrow(() -> notFound(instanceId, name));
            if (before.status() == AccessStatus.CREATING || before.status() == AccessStatus.DELETING
                    || before.partitions() == null) {
                throw ApiException.of(ProblemType.OPERATION_IN_PROGRESS, "Topic " + name + " is "
                        + before.status().name().toLowerCase(Locale.ROOT) + "; change it once that is done.");
            }
            int current = Math.max(before.partitions(), pendingPartitions(instance.id(), name));
            if (update.partitions() != null && update.partitions() <= current) {
                throw ApiException.validation("partitions", "must be more than the topic's " + current
                        + ": Kafka cannot take partitions away");
            }
            rows.insert(instance.id(), name, TopicRows.Action.UPDATE, update.partitions(), null, update.configs());
            KafkaTopic after = find(instance.id(), name).orElseThrow();
            audit.record(caller, "kafka-topic.update", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), before, after);
            return answers.record(after);
        });
    }

    KafkaTopic delete(Caller caller, UUID instanceId, String name) {
        Instance instance = access.toChange(caller, instanceId);
        return transactions.execute(tx -> {
            rows.lockTopics(instance.id());
            KafkaTopic before = find(instance.id(), name).orElseThrow(() -> notFound(instanceId, name));
            if (before.status() == AccessStatus.DELETING) {
                return before;
            }
            rows.insert(instance.id(), name, TopicRows.Action.DELETE, null, null, null);
            KafkaTopic after = find(instance.id(), name).orElseThrow();
            audit.record(caller, "kafka-topic.delete", AUDIT_TYPE, NamedItemAuditId.of(instanceId, name), before, after);
            return answers.record(after);
        });
    }

    private Optional<KafkaTopic> find(UUID instanceId, String name) {
        return Optional.ofNullable(topics(instanceId).get(name));
    }

    /** Every topic by name: those the agent saw, and those with a change, each as its newest change leaves it. */
    private TreeMap<String, KafkaTopic> topics(UUID instanceId) {
        TreeMap<String, KafkaTopic> topics = new TreeMap<>();
        for (TopicRows.Observed seen : rows.observed(instanceId)) {
            topics.put(seen.name(), new KafkaTopic(seen.name(), seen.partitions(), seen.replicationFactor(), seen.configs(),
                    retentionMs(seen.configs()), seen.sizeBytes(), AccessStatus.ACTIVE, null, seen.observedAt()));
        }
        for (TopicRows.Change change : rows.changes(instanceId)) {
            KafkaTopic seen = topics.get(change.topicName());
            topics.put(change.topicName(), seen == null ? unseen(change) : withChange(seen, change));
        }
        return topics;
    }

    /** A topic the agent has not seen: what its create asked for, or what a change of it left. */
    private static KafkaTopic unseen(TopicRows.Change change) {
        Map<String, String> configs = change.action() == TopicRows.Action.CREATE ? change.configs() : Map.of();
        return new KafkaTopic(change.topicName(), null, null, configs, retentionMs(configs), null, status(change),
                change.error(), null);
    }

    private static KafkaTopic withChange(KafkaTopic seen, TopicRows.Change change) {
        return new KafkaTopic(seen.name(), seen.partitions(), seen.replicationFactor(), seen.configs(), seen.retentionMs(),
                seen.sizeBytes(), status(change), change.error(), seen.observedAt());
    }

    private static AccessStatus status(TopicRows.Change change) {
        if (change.error() != null) {
            return AccessStatus.FAILED;
        }
        return switch (change.action()) {
            case CREATE -> AccessStatus.CREATING;
            case UPDATE -> AccessStatus.UPDATING;
            case DELETE -> AccessStatus.DELETING;
        };
    }

    private int pendingPartitions(UUID instanceId, String name) {
        return rows.pending(instanceId).stream().filter(c -> c.topicName().equals(name) && c.partitions() != null)
                .mapToInt(TopicRows.Change::partitions).max().orElse(0);
    }

    private int brokers(Instance instance) {
        return instances.catalogOf(instance).sizingOf(instance.spec().aku()).brokerCount();
    }

    private static Long retentionMs(Map<String, String> configs) {
        String value = configs.get(RETENTION_MS);
        try {
            return value == null ? null : Long.parseLong(value);
        } catch (NumberFormatException notANumber) {
            return null;
        }
    }

    private static ApiException notFound(UUID instanceId, String name) {
        return ApiException.of(ProblemType.NOT_FOUND, "Instance " + instanceId + " has no topic " + name + ".");
    }
}
