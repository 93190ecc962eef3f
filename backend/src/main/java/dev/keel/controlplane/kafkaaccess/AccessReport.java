package dev.keel.controlplane.kafkaaccess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import dev.keel.controlplane.shared.FieldError;

/**
 * What the broker agent found and did in one pass ({@code agent-access.schema.json}, the report); {@code delivery}: the
 * delivery number of the document the pass applied.
 */
record AccessReport(Long delivery, List<User> users, List<Acl> acls, List<TopicChange> topicChanges, List<Topic> topics) {

    static final int MAX_ERROR = 2000;

    record User(String name, Boolean present, @Nullable Integer appliedCredentialVersion, @Nullable String error) {
    }

    record Acl(UUID id, Boolean present, Boolean created, @Nullable String error) {
    }

    record TopicChange(UUID id, @Nullable String error) {
    }

    record Topic(String name, Integer partitions, Integer replicationFactor, Map<String, String> configs,
                 @Nullable Long sizeBytes) {
    }

    /** Every field the schema requires, with every rule broken named on its field. */
    List<FieldError> problems() {
        List<FieldError> errors = new ArrayList<>();
        if (delivery == null || delivery < 0) {
            errors.add(new FieldError("delivery", "is required: the delivery of the desired access the pass applied, 0 or more"));
        }
        required(errors, "users", users);
        required(errors, "acls", acls);
        required(errors, "topicChanges", topicChanges);
        required(errors, "topics", topics);
        for (int i = 0; users != null && i < users.size(); i++) {
            User user = users.get(i);
            String at = "users[" + i + "].";
            required(errors, at + "name", user.name());
            required(errors, at + "present", user.present());
            if (user.appliedCredentialVersion() != null && user.appliedCredentialVersion() < 1) {
                errors.add(new FieldError(at + "appliedCredentialVersion", "must be 1 or more, or null"));
            }
            error(errors, at, user.error());
        }
        for (int i = 0; acls != null && i < acls.size(); i++) {
            Acl acl = acls.get(i);
            String at = "acls[" + i + "].";
            required(errors, at + "id", acl.id());
            required(errors, at + "present", acl.present());
            required(errors, at + "created", acl.created());
            error(errors, at, acl.error());
        }
        for (int i = 0; topicChanges != null && i < topicChanges.size(); i++) {
            required(errors, "topicChanges[" + i + "].id", topicChanges.get(i).id());
            error(errors, "topicChanges[" + i + "].", topicChanges.get(i).error());
        }
        for (int i = 0; topics != null && i < topics.size(); i++) {
            Topic topic = topics.get(i);
            String at = "topics[" + i + "].";
            required(errors, at + "name", topic.name());
            required(errors, at + "configs", topic.configs());
            if (topic.partitions() == null || topic.partitions() < 1) {
                errors.add(new FieldError(at + "partitions", "must be 1 or more"));
            }
            if (topic.replicationFactor() == null || topic.replicationFactor() < 1) {
                errors.add(new FieldError(at + "replicationFactor", "must be 1 or more"));
            }
            if (topic.sizeBytes() != null && topic.sizeBytes() < 0) {
                errors.add(new FieldError(at + "sizeBytes", "must be 0 or more, or null"));
            }
        }
        return errors;
    }

    private static void required(List<FieldError> errors, String field, Object value) {
        if (value == null) {
            errors.add(new FieldError(field, "is required"));
        }
    }

    private static void error(List<FieldError> errors, String at, String error) {
        if (error != null && (error.isEmpty() || error.length() > MAX_ERROR)) {
            errors.add(new FieldError(at + "error", "must be 1 to " + MAX_ERROR + " characters, or null"));
        }
    }
}
