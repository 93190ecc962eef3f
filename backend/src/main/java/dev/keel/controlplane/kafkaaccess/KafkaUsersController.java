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
@RequestMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/users")
class KafkaUsersController {

    private final KafkaUsers users;
    private final ChangeAnswers answers;

    KafkaUsersController(KafkaUsers users, ChangeAnswers answers) {
        this.users = users;
        this.answers = answers;
    }

    @GetMapping
    Page<KafkaUser> list(Caller caller, @PathVariable UUID instanceId, @RequestParam(required = false) Integer limit,
                         @RequestParam(required = false) String cursor) {
        return users.list(caller, instanceId, cursor, limit);
    }

    @PostMapping
    ResponseEntity<KafkaUsers.Credentials> create(Caller caller, @PathVariable UUID instanceId,
                                                  @RequestBody KafkaUserCreation creation) {
        return answers.answer(() -> users.create(caller, instanceId, creation), created -> ResponseEntity.created(
                URI.create("/api/v1/instances/" + instanceId + "/users/" + created.user().name())).body(created));
    }

    @GetMapping("/{userName}")
    KafkaUser get(Caller caller, @PathVariable UUID instanceId, @PathVariable String userName) {
        return users.get(caller, instanceId, userName);
    }

    @PostMapping("/{userName}/rotate-password")
    ResponseEntity<KafkaUsers.Credentials> rotatePassword(Caller caller, @PathVariable UUID instanceId,
                                                          @PathVariable String userName) {
        return answers.answer(() -> users.rotatePassword(caller, instanceId, userName), ResponseEntity::ok);
    }

    @DeleteMapping("/{userName}")
    ResponseEntity<KafkaUser> delete(Caller caller, @PathVariable UUID instanceId, @PathVariable String userName) {
        return answers.answer(() -> users.delete(caller, instanceId, userName),
                deleted -> ResponseEntity.accepted().body(deleted));
    }
}
