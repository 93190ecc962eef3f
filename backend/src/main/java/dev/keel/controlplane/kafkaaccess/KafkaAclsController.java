package dev.keel.controlplane.kafkaaccess;

import java.net.URI;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.PathIds;

@RestController
@RequestMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/acls")
class KafkaAclsController {

    private final KafkaAcls acls;
    private final ChangeAnswers answers;

    KafkaAclsController(KafkaAcls acls, ChangeAnswers answers) {
        this.acls = acls;
        this.answers = answers;
    }

    @GetMapping
    Page<KafkaAcl> list(Caller caller, @PathVariable UUID instanceId, @RequestParam(required = false) String principal,
                        @RequestParam(required = false) Integer limit, @RequestParam(required = false) String cursor) {
        return acls.list(caller, instanceId, principal, cursor, limit);
    }

    @PostMapping
    ResponseEntity<KafkaAcl> create(Caller caller, @PathVariable UUID instanceId, @RequestBody KafkaAclCreation creation) {
        return answers.answer(() -> acls.create(caller, instanceId, creation), acl -> ResponseEntity.created(
                URI.create("/api/v1/instances/" + instanceId + "/acls/" + acl.id())).body(acl));
    }

    @GetMapping("/{aclId:" + PathIds.UUID + "}")
    KafkaAcl get(Caller caller, @PathVariable UUID instanceId, @PathVariable UUID aclId) {
        return acls.get(caller, instanceId, aclId);
    }

    @DeleteMapping("/{aclId:" + PathIds.UUID + "}")
    ResponseEntity<KafkaAcl> delete(Caller caller, @PathVariable UUID instanceId, @PathVariable UUID aclId) {
        return answers.answer(() -> acls.delete(caller, instanceId, aclId),
                deleted -> ResponseEntity.accepted().body(deleted));
    }
}
