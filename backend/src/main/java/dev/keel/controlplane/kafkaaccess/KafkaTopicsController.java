package dev.keel.controlplane.kafkaaccess;

import java.net.URI;
import java.util.UUID;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
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
@RequestMapping("/api/v1/instances/{instanceId:" + PathIds.UUID + "}/topics")
class KafkaTopicsController {

    private final KafkaTopics topics;
    private final ChangeAnswers answers;

    KafkaTopicsController(KafkaTopics topics, ChangeAnswers answers) {
        this.topics = topics;
        this.answers = answers;
    }

    @GetMapping
    Page<KafkaTopic> list(Caller caller, @PathVariable UUID instanceId, @RequestParam(required = false) Integer limit,
                          @RequestParam(required = false) String cursor) {
        return topics.list(caller, instanceId, cursor, limit);
    }

    @PostMapping
    ResponseEntity<KafkaTopic> create(Caller caller, @PathVariable UUID instanceId,
                                      @RequestBody KafkaTopicCreation creation) {
        return answers.answer(() -> topics.create(caller, instanceId, creation), topic -> ResponseEntity.accepted()
                .location(URI.create("/api/v1/instances/" + instanceId + "/topics/" + topic.name())).body(topic));
    }

    @GetMapping("/{topicName}")
    KafkaTopic get(Caller caller, @PathVariable UUID instanceId, @PathVariable String topicName) {
        return topics.get(caller, instanceId, topicName);
    }

    @PatchMapping(path = "/{topicName}", consumes = {"application/merge-patch+json", "application/json"})
    ResponseEntity<KafkaTopic> update(Caller caller, @PathVariable UUID instanceId, @PathVariable String topicName,
                                      @RequestBody KafkaTopicUpdate update) {
        return answers.answer(() -> topics.update(caller, instanceId, topicName, update),
                updated -> ResponseEntity.accepted().body(updated));
    }

    @DeleteMapping("/{topicName}")
    ResponseEntity<KafkaTopic> delete(Caller caller, @PathVariable UUID instanceId, @PathVariable String topicName) {
        return answers.answer(() -> topics.delete(caller, instanceId, topicName),
                deleted -> ResponseEntity.accepted().body(deleted));
    }
}
