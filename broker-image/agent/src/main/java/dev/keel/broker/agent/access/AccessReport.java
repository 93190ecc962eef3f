package dev.keel.broker.agent.access;

import java.util.List;
import java.util.Map;

/**
 * What one pass found and did, POSTed to {@code <ingestUrl>/v1/instances/<instanceId>/access} (answered 204). Its
 * JSON form is the ingest contract {@code contract/agent-access.schema.json} ({@code $defs/accessReport}).
 *
 * @param delivery     the delivery of the desired access this pass pulled, as it was given: applied when every user is
 * @param users        one entry per pulled user and removed user
 * @param acls         one entry per pulled ACL and removed ACL
 * @param topicChanges one entry per change this pass finished (done, or failed for good); a change left out is
 *                     still pending and is tried again by the next pass
 * @param topics       every topic but internal ones ({@code __…}); null when the pass could not list them (the
 *                     control plane keeps its last inventory)
 */
public record AccessReport(long delivery, List<UserState> users, List<AclState> acls,
                           List<ChangeOutcome> topicChanges, List<Topic> topics) {

    /**
     * @param present                  the user has a SCRAM-SHA-512 credential on the brokers after this pass
     * @param appliedCredentialVersion the credential version this pass upserted, else null
     * @param error                    what Kafka answered when applying it failed, else null
     */
    public record UserState(String name, boolean present, Long appliedCredentialVersion, String error) {
    }

    /**
     * @param present the ACL exists on the brokers after this pass
     * @param created this pass created it (it was missing)
     */
    public record AclState(String id, boolean present, boolean created, String error) {
    }

    /** @param error null: done; else why it failed for good. */
    public record ChangeOutcome(String id, String error) {
    }

    /**
     * @param configs   the configs overridden on the topic itself (source DYNAMIC_TOPIC_CONFIG)
     * @param sizeBytes the sum of its replicas' sizes; null when a broker did not say
     */
    public record Topic(String name, int partitions, int replicationFactor, Map<String, String> configs,
                        Long sizeBytes) {
    }
}
