package dev.keel.controlplane.kafkaaccess;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.keel.controlplane.kafkaaccess.KafkaAcl.AclOperation;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.PatternType;
import dev.keel.controlplane.kafkaaccess.KafkaAcl.ResourceType;
import dev.keel.controlplane.shared.FieldError;

import static dev.keel.controlplane.kafkaaccess.KafkaAcl.AclOperation.*;

/**
 * Kafka's rules for an ACL binding, checked before it is recorded, so the brokers never refuse what the API accepted:
 * the operations each resource type has (Kafka's {@code AclEntry.supportedOperations}), the cluster resource's one
 * name, a prefix that is not the wildcard, a principal of the only type SCRAM authenticates, a host that is an address.
 */
final class AclRules {

    static final String CLUSTER_NAME = "kafka-cluster";
    static final int MAX_PRINCIPAL = 300;
    static final int MAX_RESOURCE_NAME = 255;
    private static final String WILDCARD = "*";
    /** The only principal type SCRAM authenticates; names in printable ASCII, as Keel's own users' are. */
    private static final Pattern PRINCIPAL = Pattern.compile("User:[!-~]+");

    static final Map<ResourceType, Set<AclOperation>> OPERATIONS = Map.of(
            ResourceType.TOPIC, EnumSet.of(READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS, ALL),
            ResourceType.GROUP, EnumSet.of(READ, DESCRIBE, DELETE, ALL),
            ResourceType.CLUSTER, EnumSet.of(CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE,
                    ALTER, DESCRIBE, ALL),
            ResourceType.TRANSACTIONAL_ID, EnumSet.of(DESCRIBE, WRITE, ALL));

    private static final Pattern IPV4 = Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
            + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    private static final Pattern IPV6_CHARACTERS = Pattern.compile("[0-9A-Fa-f:.]{2,45}");

    private AclRules() {
    }

    static List<FieldError> check(KafkaAclCreation acl) {
        List<FieldError> errors = new ArrayList<>();
        require(errors, "principal", acl.principal());
        require(errors, "resourceType", acl.resourceType());
        require(errors, "resourceName", acl.resourceName());
        require(errors, "patternType", acl.patternType());
        require(errors, "operation", acl.operation());
        require(errors, "permission", acl.permission());
        if (acl.principal() != null) {
            principal(acl.principal()).ifPresent(message -> errors.add(new FieldError("principal", message)));
        }
        String name = acl.resourceName();
        if (name != null && (name.isEmpty() || name.codePointCount(0, name.length()) > MAX_RESOURCE_NAME
                || name.chars().anyMatch(Character::isISOControl))) {
            errors.add(new FieldError("resourceName", "must be 1 to " + MAX_RESOURCE_NAME
                    + " characters, without control characters"));
        } else if (name != null && acl.resourceType() == ResourceType.CLUSTER && !name.equals(CLUSTER_NAME)) {
            errors.add(new FieldError("resourceName", "must be " + CLUSTER_NAME + " for CLUSTER: a cluster has one name"));
        } else if (name != null && acl.patternType() == PatternType.PREFIXED && name.equals(WILDCARD)) {
            errors.add(new FieldError("resourceName", "cannot be * with PREFIXED: use * with LITERAL for every resource"));
        }
        if (acl.resourceType() == ResourceType.CLUSTER && acl.patternType() == PatternType.PREFIXED) {
            errors.add(new FieldError("patternType", "must be LITERAL for CLUSTER"));
        }
        if (acl.resourceType() != null && acl.operation() != null
                && !OPERATIONS.get(acl.resourceType()).contains(acl.operation())) {
            errors.add(new FieldError("operation", "is not an operation on " + acl.resourceType() + "; it has "
                    + OPERATIONS.get(acl.resourceType()).stream().map(Enum::name).sorted().toList()));
        }
        if (!isHost(acl.hostOrAny())) {
            errors.add(new FieldError("host", "must be * (any host) or an IPv4 or IPv6 address"));
        }
        return errors;
    }

    /** What is wrong with the principal, if anything. */
    private static Optional<String> principal(String principal) {
        if (principal.length() > MAX_PRINCIPAL) {
            return Optional.of("must be at most " + MAX_PRINCIPAL + " characters");
        }
        if (!PRINCIPAL.matcher(principal).matches()) {
            return Optional.of("must be User:<name> (a SCRAM user) or User:* (every authenticated user), "
                    + "in printable ASCII without spaces");
        }
        return Optional.empty();
    }

    private static boolean isHost(String host) {
        if (host.equals(WILDCARD) || IPV4.matcher(host).matches()) {
            return true;
        }
        if (!host.contains(":") || !IPV6_CHARACTERS.matcher(host).matches()) {
            return false;
        }
        try {
            // Only hex digits, colons and dots: parsed as a literal, never looked up.
            return InetAddress.getByName(host) != null;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static void require(List<FieldError> errors, String field, Object value) {
        if (value == null) {
            errors.add(new FieldError(field, "is required"));
        }
    }
}
