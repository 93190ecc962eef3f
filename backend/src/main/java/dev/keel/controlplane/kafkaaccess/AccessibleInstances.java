package dev.keel.controlplane.kafkaaccess;

import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.InstanceState;
import dev.keel.controlplane.instances.Instances;
import dev.keel.controlplane.instances.ListenerSecurityGuard;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

/** The caller's instance whose Kafka users, ACLs and topics are asked for, checked for what the request needs. */
@Component
class AccessibleInstances {

    private final Instances instances;

    AccessibleInstances(Instances instances) {
        this.instances = instances;
    }

    /** To read: any instance of the caller's organization (404 for another's). */
    Instance toRead(Caller caller, UUID instanceId) {
        return instances.get(caller.organizationId(), instanceId);
    }

    /** To change topics: not being deleted. */
    Instance toChange(Caller caller, UUID instanceId) {
        Instance instance = toRead(caller, instanceId);
        if (instance.state() == InstanceState.DELETING || instance.state() == InstanceState.DELETED) {
            throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instanceId
                    + " is being deleted or deleted; its brokers take no more changes.");
        }
        return instance;
    }

    /** To read or change users and ACLs: brokers that authenticate clients. */
    Instance withAuthentication(Instance instance) {
        ListenerSecurityGuard.requireSecure(instance, "Kafka users and ACLs mean nothing there");
        return instance;
    }
}
