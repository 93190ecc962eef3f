package dev.keel.controlplane.instances;

import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.keel.controlplane.identity.InstanceTokens;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

/**
 * The instance a broker agent speaks for: it sends its instance's ingest token as a bearer token, and can speak only
 * for that instance, and only while the instance is not deleted.
 */
@Component
public class AgentAuthentication {

    private final Instances instances;
    private final InstanceTokens tokens;

    AgentAuthentication(Instances instances, InstanceTokens tokens) {
        this.instances = instances;
        this.tokens = tokens;
    }

    /** 401 for a missing or wrong token, 409 {@code instance-deleted} once the instance is deleted. */
    public Instance instance(UUID instanceId, String authorization) {
        String token = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : null;
        Instance instance = instances.find(instanceId).filter(i -> tokens.matches(instanceId, token))
                .orElseThrow(() -> ApiException.of(ProblemType.UNAUTHORIZED, "Send the instance's ingest token as a bearer token."));
        if (instance.state() == InstanceState.DELETED) {
            throw ApiException.of(ProblemType.INSTANCE_DELETED, "Instance " + instanceId + " is deleted; its brokers should be gone.");
        }
        return instance;
    }
}
