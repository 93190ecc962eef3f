package dev.keel.broker.agent.access;

import java.util.List;
import java.util.Map;

/**
 * What the control plane wants on the brokers: {@code GET <ingestUrl>/v1/instances/<instanceId>/access}. Its JSON
 * form is the ingest contract {@code contract/agent-access.schema.json} ({@code $defs/desiredAccess}); change both
 * together.
 *
 * @param delivery     the newest delivery of the instance's credentials: a report says which it applied
 * @param users        every SCRAM user that should exist
 * @param removedUsers users deleted through the API and not yet reported absent
 * @param acls         every ACL that should exist
 * @param removedAcls  ACLs deleted through the API and not yet reported absent
 * @param topicChanges topic changes not yet applied, oldest first
 */
public record DesiredAccess(long delivery, List<User> users, List<String> removedUsers, List<Acl> acls,
                            List<Acl> removedAcls, List<TopicChange> topicChanges) {

    public DesiredAccess {
        users = users == null ? List.of() : List.copyOf(users);
        removedUsers = removedUsers == null ? List.of() : List.copyOf(removedUsers);
        acls = acls == null ? List.of() : List.copyOf(acls);
        removedAcls = removedAcls == null ? List.of() : List.copyOf(removedAcls);
        topicChanges = topicChanges == null ? List.of() : List.copyOf(topicChanges);
    }

    /**
     * A SCRAM-SHA-512 user. {@code password} is given (else null) only while the control plane has not seen this
     * {@code credentialVersion} applied, or after a report said the user was absent. Never logged.
     */
    public record User(String name, long credentialVersion, String password) {
        @Override
        public String toString() {
            return "User[name=" + name + ", credentialVersion=" + credentialVersion + "]";
        }
    }

    /** One Kafka ACL binding, by Kafka's own enum names (resourceType TOPIC, patternType LITERAL, …). */
    public record Acl(String id, String principal, String host, String resourceType, String resourceName,
                      String patternType, String operation, String permission) {
    }

    /**
     * A change to a topic. CREATE: {@code partitions} and {@code replicationFactor} (null: the broker's default),
     * {@code configs} to set. UPDATE: {@code partitions} null or the new, higher count; {@code configs} a merge
     * patch (a value sets the topic's override, null removes it). DELETE: only the name.
     */
    public record TopicChange(String id, String action, String name, Integer partitions, Integer replicationFactor,
                              Map<String, String> configs) {
        public static final String CREATE = "CREATE";
        public static final String UPDATE = "UPDATE";
        public static final String DELETE = "DELETE";
    }
}
