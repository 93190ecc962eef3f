package dev.keel.broker.agent.access;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DeleteAclsResult;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ACLs: compares the cluster's ACLs with the desired ones on all seven fields (principal, host, resource type,
 * name and pattern type, operation, permission); creates the missing ones (reported {@code created}, so the
 * control plane can tell an ACL restored after a deletion behind its back) and deletes the removed ones with an
 * exact filter, never one that matches more.
 */
final class AclBindings {
    private static final Logger LOG = LoggerFactory.getLogger(AclBindings.class);

    private AclBindings() {
    }

    static List<AccessReport.AclState> apply(Admin admin, List<DesiredAccess.Acl> desired,
                                             List<DesiredAccess.Acl> removed) throws InterruptedException {
        Map<String, AclBinding> bindings = new HashMap<>();
        Map<String, String> invalid = new HashMap<>();
        for (DesiredAccess.Acl acl : concat(desired, removed)) {
            try {
                bindings.put(acl.id(), binding(acl));
            } catch (IllegalArgumentException e) {
                invalid.put(acl.id(), e.getMessage());
            }
        }
        Set<AclBinding> existing;
        try {
            existing = new HashSet<>(AdminCalls.await(admin.describeAcls(AclBindingFilter.ANY).values()));
        } catch (ExecutionException | TimeoutException e) {
            String error = AdminCalls.error(e);
            LOG.warn("cannot list the ACLs: {}", error);
            return concat(desired, removed).stream()
                    .map(acl -> new AccessReport.AclState(acl.id(), false, false, invalid.getOrDefault(acl.id(), error)))
                    .toList();
        }

        Set<AclBinding> missing = new LinkedHashSet<>();
        desired.stream().map(acl -> bindings.get(acl.id())).filter(b -> b != null && !existing.contains(b))
                .forEach(missing::add);
        Map<AclBinding, KafkaFuture<Void>> created = missing.isEmpty() ? Map.of()
                : admin.createAcls(missing).values();
        Set<AclBindingFilter> gone = new LinkedHashSet<>();
        removed.stream().map(acl -> bindings.get(acl.id())).filter(b -> b != null && existing.contains(b))
                .map(AclBinding::toFilter).forEach(gone::add);
        Map<AclBindingFilter, KafkaFuture<DeleteAclsResult.FilterResults>> deleted = gone.isEmpty() ? Map.of()
                : admin.deleteAcls(gone).values();

        List<AccessReport.AclState> states = new ArrayList<>();
        for (DesiredAccess.Acl acl : desired) {
            AclBinding binding = bindings.get(acl.id());
            if (binding == null) {
                states.add(new AccessReport.AclState(acl.id(), false, false, invalid.get(acl.id())));
            } else if (existing.contains(binding)) {
                states.add(new AccessReport.AclState(acl.id(), true, false, null));
            } else {
                String error = AdminCalls.failure(created.get(binding));
                if (error == null) {
                    LOG.info("ACL {} created: {}", acl.id(), binding);
                } else {
                    LOG.warn("creating ACL {}: {}", acl.id(), error);
                }
                states.add(new AccessReport.AclState(acl.id(), error == null, error == null, error));
            }
        }
        for (DesiredAccess.Acl acl : removed) {
            AclBinding binding = bindings.get(acl.id());
            if (binding == null) {
                states.add(new AccessReport.AclState(acl.id(), false, false, invalid.get(acl.id())));
            } else if (!existing.contains(binding)) {
                states.add(new AccessReport.AclState(acl.id(), false, false, null));
            } else {
                String error = deletion(deleted.get(binding.toFilter()));
                if (error == null) {
                    LOG.info("ACL {} deleted: {}", acl.id(), binding);
                } else {
                    LOG.warn("deleting ACL {}: {}", acl.id(), error);
                }
                states.add(new AccessReport.AclState(acl.id(), error != null, false, error));
            }
        }
        return states;
    }

    /** The Kafka binding of an ACL; refuses (IllegalArgumentException) a field Kafka has no value for. */
    static AclBinding binding(DesiredAccess.Acl acl) {
        ResourcePattern pattern = new ResourcePattern(value(ResourceType.class, "resourceType", acl.resourceType()),
                required("resourceName", acl.resourceName()),
                value(PatternType.class, "patternType", acl.patternType()));
        AccessControlEntry entry = new AccessControlEntry(required("principal", acl.principal()),
                required("host", acl.host()),
                value(AclOperation.class, "operation", acl.operation()),
                value(AclPermissionType.class, "permission", acl.permission()));
        AclBinding binding = new AclBinding(pattern, entry);
        if (binding.isUnknown()) {
            throw new IllegalArgumentException("not a concrete ACL: " + binding);
        }
        return binding;
    }

    private static String required(String field, String value) {
        if (value == null) {
            throw new IllegalArgumentException(field + ": missing");
        }
        return value;
    }

    private static <E extends Enum<E>> E value(Class<E> type, String field, String name) {
        try {
            E value = Enum.valueOf(type, name);
            if (!"UNKNOWN".equals(value.name()) && !"ANY".equals(value.name()) && !"MATCH".equals(value.name())) {
                return value;
            }
        } catch (IllegalArgumentException | NullPointerException e) {
            // no such name (or none): refused below
        }
        throw new IllegalArgumentException(field + ": Kafka has no " + field + " '" + name + "'");
    }

    private static List<DesiredAccess.Acl> concat(Collection<DesiredAccess.Acl> a, Collection<DesiredAccess.Acl> b) {
        List<DesiredAccess.Acl> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }


    private static String deletion(KafkaFuture<DeleteAclsResult.FilterResults> result) throws InterruptedException {
        try {
            for (DeleteAclsResult.FilterResult r : AdminCalls.await(result).values()) {
                if (r.exception() != null) {
                    return AdminCalls.error(r.exception());
                }
            }
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return AdminCalls.error(e);
        }
    }
}
