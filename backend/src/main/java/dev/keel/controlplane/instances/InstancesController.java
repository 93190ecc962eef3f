package dev.keel.controlplane.instances;

import java.net.URI;
import java.util.Map;
import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.operations.Operation;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.PathIds;
import dev.keel.controlplane.shared.QueryFlags;

@RestController
@RequestMapping("/api/v1/instances")
class InstancesController {

    private final Instances instances;
    private final BrokerStates brokers;
    private final ChangeAnswers answers;

    InstancesController(Instances instances, BrokerStates brokers, ChangeAnswers answers) {
        this.instances = instances;
        this.brokers = brokers;
        this.answers = answers;
    }

    @PostMapping
    ResponseEntity<InstanceCreationAccepted> create(Caller caller, @RequestBody InstanceCreation creation) {
        return answers.answer(() -> instances.create(caller, creation),
                created -> accepted(created.operation()).body(created));
    }

    /** What creating this spec would make in the cloud; nothing is created. */
    @PostMapping("/plan")
    Plan planCreate(Caller caller, @RequestBody InstanceCreation creation) {
        return instances.planCreate(caller, creation);
    }

    /**
     * With a capacity change: what updating would change; without: what repair would fix; with {@code delete=true}:
     * what deleting would (with {@code purge}, at once). Nothing is changed.
     */
    @PostMapping("/{instanceId:" + PathIds.UUID + "}/plan")
    Plan plan(Caller caller, @PathVariable UUID instanceId, @RequestBody(required = false) InstanceUpdate update,
              @RequestParam(required = false) String delete, @RequestParam(required = false) String purge) {
        boolean deleting = flag("delete", delete);
        if (!deleting) {
            if (purge != null) {
                throw ApiException.validation("purge", "only plans a delete: send it with delete=true");
            }
            return instances.plan(caller, instanceId, update);
        }
        if (update != null) {
            throw ApiException.validation("body", "a delete plan takes no body: leave it out, or leave out delete=true "
                    + "to plan a capacity change");
        }
        return instances.planDelete(caller, instanceId, flag("purge", purge));
    }

    @PostMapping("/{instanceId:" + PathIds.UUID + "}/repair")
    ResponseEntity<Operation> repair(Caller caller, @PathVariable UUID instanceId) {
        return answers.answer(() -> instances.repair(caller, instanceId), operation -> accepted(operation, null));
    }

    @GetMapping
    Page<InstanceView> list(Caller caller, @RequestParam(required = false) InstanceState state,
                            @RequestParam(required = false) String name,
                            @RequestParam(required = false) Integer limit,
                            @RequestParam(required = false) String cursor) {
        if (name != null && (name.isEmpty() || name.codePointCount(0, name.length()) > SpecRules.MAX_NAME_LENGTH)) {
            throw ApiException.validation("name", "must be 1 to " + SpecRules.MAX_NAME_LENGTH + " characters");
        }
        Page<Instance> page = instances.list(caller.organizationId(), state, name, Cursor.decode(cursor), Cursor.limit(limit));
        Map<UUID, Map<Integer, BrokerState>> states = brokers.of(page.items());
        return new Page<>(page.items().stream().map(i -> view(i, states.get(i.id()))).toList(), page.nextCursor());
    }

    @GetMapping("/{instanceId:" + PathIds.UUID + "}")
    ResponseEntity<InstanceView> get(Caller caller, @PathVariable UUID instanceId) {
        Instance instance = instances.get(caller.organizationId(), instanceId);
        return ResponseEntity.ok().eTag(instance.etag()).body(view(instance, brokers.of(instance)));
    }

    /** A capacity change answers 202 with its operation; a change of deletion protection alone, 200 with the instance. */
    @PatchMapping(path = "/{instanceId:" + PathIds.UUID + "}", consumes = {"application/merge-patch+json", "application/json"})
    ResponseEntity<?> update(Caller caller, @PathVariable UUID instanceId,
                             @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
                             @RequestBody InstanceUpdate update) {
        if (update.onlyDeletionProtection()) {
            return answers.answer(() -> instances.updateDeletionProtection(caller, instanceId, ifMatch,
                            update.deletionProtection()),
                    instance -> ResponseEntity.ok().eTag(instance.etag())
                            .body(view(instance, brokers.of(instance))));
        }
        return answers.answer(() -> instances.update(caller, instanceId, ifMatch, update),
                operation -> accepted(operation, instances.get(caller.organizationId(), instanceId).etag()));
    }

    @DeleteMapping("/{instanceId:" + PathIds.UUID + "}")
    ResponseEntity<Operation> delete(Caller caller, @PathVariable UUID instanceId,
                                     @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch,
                                     @RequestParam(required = false) String purge) {
        boolean purging = flag("purge", purge);
        return answers.answer(() -> instances.delete(caller, instanceId, ifMatch, purging),
                operation -> accepted(operation, null));
    }

    /** A boolean query parameter, written as JSON writes one; left out, false. */
    private static boolean flag(String name, String value) {
        return Boolean.TRUE.equals(QueryFlags.parse(name, value));
    }

    private InstanceView view(Instance instance, Map<Integer, BrokerState> brokers) {
        return InstanceView.of(instance, instances.catalogOf(instance), brokers);
    }

    private static ResponseEntity<Operation> accepted(Operation operation, String etag) {
        ResponseEntity.BodyBuilder response = accepted(operation);
        if (etag != null) {
            response.eTag(etag);
        }
        return response.body(operation);
    }

    private static ResponseEntity.BodyBuilder accepted(Operation operation) {
        return ResponseEntity.accepted()
                .location(URI.create("/api/v1/operations/" + operation.id()))
                .header(HttpHeaders.CONTENT_LOCATION, "/api/v1/instances/" + operation.instanceId());
    }
}
