package dev.keel.controlplane.kafkaaccess;

import java.util.UUID;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.instances.AgentAuthentication;
import dev.keel.controlplane.instances.Instance;

/**
 * Where the broker agent that reconciles an instance's Kafka access pulls what it is to apply and reports what it did.
 * Not part of the user API: the agent authenticates with its instance's token.
 */
@RestController
class AccessIngestController {

    private final AgentAuthentication agents;
    private final DesiredAccess desired;
    private final AccessReports reports;

    AccessIngestController(AgentAuthentication agents, DesiredAccess desired, AccessReports reports) {
        this.agents = agents;
        this.desired = desired;
        this.reports = reports;
    }

    @GetMapping("/ingest/v1/instances/{instanceId}/access")
    ResponseEntity<DesiredAccess.Document> desired(@PathVariable UUID instanceId,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
        Instance instance = agents.instance(instanceId, authorization);
        // Carries passwords: no cache keeps it.
        return ResponseEntity.ok().cacheControl(CacheControl.noStore())
                .body(desired.of(instance));
    }

    @PostMapping("/ingest/v1/instances/{instanceId}/access")
    ResponseEntity<Void> report(@PathVariable UUID instanceId,
                                @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
                                @RequestBody AccessReport report) {
        reports.record(agents.instance(instanceId, authorization), report);
        return ResponseEntity.noContent().build();
    }
}
