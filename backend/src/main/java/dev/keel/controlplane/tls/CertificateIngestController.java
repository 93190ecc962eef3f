package dev.keel.controlplane.tls;

import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.InstanceNodes;
import dev.keel.controlplane.instances.ListenerSecurityGuard;
import dev.keel.controlplane.instances.AgentAuthentication;
import dev.keel.controlplane.shared.ApiException;

/**
 * Where a broker's agent has its certificate signed (contract/agent-certificate.schema.json): it sends a CSR for a key
 * it made and keeps, authenticated with its instance's ingest token, and gets the certificate and its CA back; only
 * for a node its instance has ({@link InstanceNodes}), and only for that node's addresses.
 */
@RestController
class CertificateIngestController {

    /** As many brokers as a node spec allows. */
    private static final int MAX_NODE_ID = 9_999;

    private final AgentAuthentication agents;
    private final InstanceNodes nodes;
    private final BrokerCertificates certificates;

    CertificateIngestController(AgentAuthentication agents, InstanceNodes nodes, BrokerCertificates certificates) {
        this.agents = agents;
        this.nodes = nodes;
        this.certificates = certificates;
    }

    record CertificateRequest(String csr) {
    }

    @PostMapping("/ingest/v1/instances/{instanceId}/nodes/{nodeId}/certificate")
    BrokerCertificates.Issued sign(@PathVariable UUID instanceId, @PathVariable int nodeId,
                                   @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                   @RequestBody CertificateRequest request) {
        Instance instance = agents.instance(instanceId, authorization);
        ListenerSecurityGuard.requireSecure(instance, "its brokers need no certificate");
        if (nodeId < 0 || nodeId > MAX_NODE_ID) {
            throw ApiException.validation(InstanceNodes.FIELD, "must be a node id from 0 to " + MAX_NODE_ID);
        }
        nodes.requireKnown(instance, nodeId);
        return certificates.issue(instance, nodeId, request.csr());
    }
}
