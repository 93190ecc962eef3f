package dev.keel.controlplane.operations;

import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.PathIds;

@RestController
class OperationsController {

    private final Operations operations;

    OperationsController(Operations operations) {
        this.operations = operations;
    }

    @GetMapping("/api/v1/operations/{operationId:" + PathIds.UUID + "}")
    Operation get(Caller caller, @PathVariable UUID operationId) {
        return operations.get(caller.organizationId(), operationId);
    }

    @PostMapping("/api/v1/operations/{operationId:" + PathIds.UUID + "}/cancel")
    Operation cancel(Caller caller, @PathVariable UUID operationId) {
        return operations.cancel(caller, operationId);
    }

    /** Every instance has its CREATE operation, so an empty first page means no such instance here. */
    @GetMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/operations")
    Page<Operation> listForInstance(Caller caller, @PathVariable UUID instanceId,
                                    @RequestParam(required = false) Integer limit,
                                    @RequestParam(required = false) String cursor) {
        Cursor after = Cursor.decode(cursor);
        Page<Operation> page = operations.listForInstance(caller.organizationId(), instanceId, after, Cursor.limit(limit));
        if (after == null && page.items().isEmpty()) {
            throw ApiException.notFound("Instance", instanceId);
        }
        return page;
    }
}
