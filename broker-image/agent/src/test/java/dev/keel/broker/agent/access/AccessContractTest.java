package dev.keel.broker.agent.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.Test;

/** The agent's access records and the access contract say the same thing. */
class AccessContractTest {
    static final String DESIRED = """
            {"delivery": 3, "users": [{"name": "admin", "credentialVersion": 1, "password": "p4ssw0rd-p4ssw0rd-p4ssw0rd-abcd"},
                       {"name": "alice", "credentialVersion": 3, "password": null}],
             "removedUsers": ["bob"],
             "acls": [{"id": "7c0b5b7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b", "principal": "User:alice", "host": "*",
                       "resourceType": "TOPIC", "resourceName": "orders", "patternType": "LITERAL",
                       "operation": "READ", "permission": "ALLOW"}],
             "removedAcls": [{"id": "0d4e8c1a-2b3c-4d5e-9f0a-1b2c3d4e5f6a", "principal": "User:bob", "host": "*",
                              "resourceType": "GROUP", "resourceName": "billing-", "patternType": "PREFIXED",
                              "operation": "ALL", "permission": "ALLOW"}],
             "topicChanges": [{"id": "5e1f0a2b", "action": "CREATE", "name": "orders", "partitions": 6,
                               "replicationFactor": null, "configs": {"retention.ms": "604800000"}},
                              {"id": "5e1f0a2c", "action": "UPDATE", "name": "orders", "partitions": null,
                               "replicationFactor": null, "configs": {"retention.ms": null}},
                              {"id": "5e1f0a2d", "action": "DELETE", "name": "old", "partitions": null,
                               "replicationFactor": null, "configs": null}]}
            """;

    @Test
    void theDesignsDesiredAccessFollowsTheContractAndTheAgentReadsAllOfIt() throws Exception {
        assertThat(AccessSchema.validate(AccessSchema.DESIRED, DESIRED)).isEmpty();
        DesiredAccess desired = AccessIngest.JSON.readValue(DESIRED, DesiredAccess.class);
        assertThat(desired.delivery()).isEqualTo(3);
        assertThat(desired.users()).extracting(DesiredAccess.User::name).containsExactly("admin", "alice");
        assertThat(desired.users().get(1).password()).isNull();
        assertThat(desired.removedUsers()).containsExactly("bob");
        assertThat(desired.acls().get(0).resourceName()).isEqualTo("orders");
        assertThat(desired.removedAcls().get(0).patternType()).isEqualTo("PREFIXED");
        assertThat(desired.topicChanges().get(1).configs()).containsEntry("retention.ms", null);
        assertThat(AccessSchema.validate(AccessSchema.DESIRED, AccessIngest.JSON.writeValueAsString(desired)))
                .as("what the agent reads, written back, is the same document").isEmpty();
    }

    @Test
    void aReportTheAgentWritesFollowsTheContract() throws Exception {
        Map<String, String> configs = new LinkedHashMap<>();
        configs.put("retention.ms", "604800000");
        AccessReport report = new AccessReport(3,
                List.of(new AccessReport.UserState("admin", true, 1L, null),
                        new AccessReport.UserState("alice", false, null, null),
                        new AccessReport.UserState("bob", true, null, "ClusterAuthorizationException: denied")),
                List.of(new AccessReport.AclState("7c0b", true, true, null)),
                List.of(new AccessReport.ChangeOutcome("5e1f0a2b", null),
                        new AccessReport.ChangeOutcome("5e1f0a2c", "InvalidConfigurationException: bad")),
                List.of(new AccessReport.Topic("orders", 6, 1, configs, 123456L),
                        new AccessReport.Topic("events", 3, 1, Map.of(), null)));
        String json = AccessIngest.JSON.writeValueAsString(report);
        assertThat(AccessSchema.validate(AccessSchema.REPORT, json)).as(json).isEmpty();
        JsonNode tree = AccessIngest.JSON.readTree(json);
        assertThat(tree.at("/users/1/appliedCredentialVersion").isNull()).as("nulls are written, not left out").isTrue();

        String unknownInventory = AccessIngest.JSON.writeValueAsString(
                new AccessReport(0, List.of(), List.of(), List.of(), null));
        assertThat(AccessSchema.validate(AccessSchema.REPORT, unknownInventory)).isEmpty();
    }

    @Test
    void theContractRefusesWhatTheAgentCouldNotApply() throws Exception {
        assertThat(AccessSchema.validate(AccessSchema.DESIRED, DESIRED.replace("\"LITERAL\"", "\"MATCH\"")))
                .isNotEmpty();
        assertThat(AccessSchema.validate(AccessSchema.DESIRED, DESIRED.replace("\"removedUsers\": [\"bob\"],", "")))
                .isNotEmpty();
        assertThat(AccessSchema.validate(AccessSchema.DESIRED, DESIRED.replace("\"bob\"", "\"CN=keel-brokers.x\"")))
                .as("no SCRAM user can be the brokers' certificate principal").isNotEmpty();
        assertThat(AccessSchema.validate(AccessSchema.REPORT, "{\"users\": [], \"acls\": [], \"topicChanges\": []}"))
                .isNotEmpty();
        assertThat(AccessSchema.validate(AccessSchema.REPORT,
                "{\"users\": [], \"acls\": [], \"topicChanges\": [], \"topics\": null}"))
                .as("a report names the delivery it applied").isNotEmpty();
    }

    @Test
    void everyRecordHasExactlyTheContractsFields() throws Exception {
        Map<Class<? extends Record>, String> pointers = Map.of(
                DesiredAccess.class, "/$defs/desiredAccess",
                DesiredAccess.User.class, "/$defs/user",
                DesiredAccess.Acl.class, "/$defs/acl",
                DesiredAccess.TopicChange.class, "/$defs/topicChange",
                AccessReport.class, "/$defs/accessReport",
                AccessReport.UserState.class, "/$defs/accessReport/properties/users/items",
                AccessReport.AclState.class, "/$defs/accessReport/properties/acls/items",
                AccessReport.ChangeOutcome.class, "/$defs/accessReport/properties/topicChanges/items",
                AccessReport.Topic.class, "/$defs/accessReport/properties/topics/items");
        for (var e : pointers.entrySet()) {
            assertThat(Arrays.stream(e.getKey().getRecordComponents()).map(c -> c.getName()).toList())
                    .as(e.getKey().getSimpleName()).containsExactlyInAnyOrderElementsOf(AccessSchema.properties(e.getValue()));
        }
    }
}
