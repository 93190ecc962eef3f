package dev.keel.controlplane.audit;

import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;

@RestController
@RequestMapping("/api/v1/audit-events")
class AuditEventsController {

    private static final Pattern RESOURCE_TYPE = Pattern.compile("^[a-z][a-z-]{1,63}$");

    private final AuditLog audit;

    AuditEventsController(AuditLog audit) {
        this.audit = audit;
    }

    @GetMapping
    Page<AuditLog.AuditEvent> list(Caller caller,
                                   @RequestParam(required = false) String resourceType,
                                   @RequestParam(required = false) UUID resourceId,
                                   @RequestParam(required = false) Integer limit,
                                   @RequestParam(required = false) String cursor) {
        if (resourceType != null && !RESOURCE_TYPE.matcher(resourceType).matches()) {
            throw ApiException.validation("resourceType", "must be a resource type such as instance or cloud-account");
        }
        return audit.list(caller.organizationId(), resourceType, resourceId == null ? null : resourceId.toString(),
                Cursor.decode(cursor), Cursor.limit(limit));
    }
}
