package dev.keel.controlplane.kafkaaccess;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.keel.controlplane.support.ApiClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The reconciling broker agent's side of the access protocol: pulls the desired access, reports a pass. */
final class AgentAccess {

    private final ApiClient ingest;
    private final UUID instanceId;

    AgentAccess(int port, UUID instanceId, String token) {
        this.ingest = new ApiClient("http://localhost:" + port + "/ingest/v1", null)
                .header("Authorization", "Bearer " + token);
        this.instanceId = instanceId;
    }

    JsonNode pull() {
        ApiClient.Response desired = ingest.get(path());
        assertThat(desired.status()).as(desired.toString()).isEqualTo(200);
        return desired.json();
    }

    ApiClient.Response send(Map<String, Object> report) {
        return ingest.post(path(), report);
    }

    void report(Map<String, Object> report) {
        ApiClient.Response sent = send(report);
        assertThat(sent.status()).as(sent.toString()).isEqualTo(204);
    }

    /** A pass's report; of delivery 0, the first, which it applies nothing of that counts. */
    static Map<String, Object> report(List<Map<String, Object>> users, List<Map<String, Object>> acls,
                                      List<Map<String, Object>> topicChanges, List<Map<String, Object>> topics) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("delivery", 0);
        report.put("users", users);
        report.put("acls", acls);
        report.put("topicChanges", topicChanges);
        report.put("topics", topics);
        return report;
    }

    static Map<String, Object> user(String name, boolean present, Integer applied, String error) {
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("name", name);
        user.put("present", present);
        user.put("appliedCredentialVersion", applied);
        user.put("error", error);
        return user;
    }

    static Map<String, Object> acl(String id, boolean present, boolean created) {
        Map<String, Object> acl = new LinkedHashMap<>();
        acl.put("id", id);
        acl.put("present", present);
        acl.put("created", created);
        acl.put("error", null);
        return acl;
    }

    static Map<String, Object> change(String id, String error) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("id", id);
        change.put("error", error);
        return change;
    }

    static Map<String, Object> topic(String name, int partitions, Map<String, String> configs) {
        Map<String, Object> topic = new LinkedHashMap<>();
        topic.put("name", name);
        topic.put("partitions", partitions);
        topic.put("replicationFactor", 1);
        topic.put("configs", configs);
        topic.put("sizeBytes", 1024);
        return topic;
    }

    private String path() {
        return "/instances/" + instanceId + "/access";
    }
}
