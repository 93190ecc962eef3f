package dev.keel.controlplane.audit;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

@RestController
@RequestMapping("/api/v1/audit-events")
class AuditEventsController {

    private final AuditLog audit;

    AuditEventsController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping
    Page<AuditLog.AuditEvent> list(Caller caller,
                                   @RequestParam(required = false) String resourceType,
                                   @RequestParam(required = false) String resourceId,
                                   @RequestParam(required = false) Integer limit,
                                   @RequestParam(required = false) String cursor) {
        return audit.list(caller.organizationId(), resourceType, resourceId, Cursor.decode(cursor), Cursor.limit(limit));
    }
}
