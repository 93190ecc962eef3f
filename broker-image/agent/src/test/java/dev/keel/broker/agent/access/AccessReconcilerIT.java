package dev.keel.broker.agent.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access reconciler against a real Apache Kafka broker with SCRAM and the StandardAuthorizer
 * ({@link StandInKafka}) and a control-plane stand-in speaking the ingest contract ({@link ControlPlaneStandIn}).
 * Each test uses names of its own on the one broker.
 */
class AccessReconcilerIT {
    @TempDir
    static Path dir;
    static StandInKafka kafka;
    ControlPlaneStandIn controlPlane;
    AccessReconciler reconciler;

    @BeforeAll
    static void startKafka() throws Exception {
        kafka = StandInKafka.start(dir);
    }

    @AfterAll
    static void stopKafka() throws Exception {
        if (kafka != null) {
            kafka.close();
        }
    }

    @BeforeEach
    void startControlPlane() throws Exception {
        controlPlane = new ControlPlaneStandIn();
        reconciler = new AccessReconciler(kafka::admin, controlPlane.ingest(), true);
    }

    @AfterEach
    void stopControlPlane() {
        controlPlane.close();
    }

    @Test
    void usersAreCreatedAndAuthenticateAndARemovedUserIsDeletedAndRefused() throws Exception {
        controlPlane.desire(access(List.of(user("alice", 1, "alice-secret-1")), List.of(),
                List.of(allow("a1", "User:alice", "payments", "WRITE"), allow("a2", "User:alice", "payments", "DESCRIBE")),
                List.of(), List.of(create("t1", "payments", 1, null, Map.of()))));

        AccessReport report = reconciler.pass();

        assertThat(report.delivery()).as("the delivery it pulled, as given").isEqualTo(1);
        assertThat(report.users()).containsExactly(new AccessReport.UserState("alice", true, 1L, null));
        assertThat(report.acls()).containsExactly(new AccessReport.AclState("a1", true, true, null),
                new AccessReport.AclState("a2", true, true, null));
        assertThat(report.topicChanges()).containsExactly(new AccessReport.ChangeOutcome("t1", null));
        assertThat(controlPlane.lastReport()).as("what the control plane received").isEqualTo(report);
        eventually(() -> produce("alice", "alice-secret-1", "payments") == null, "alice produces with SCRAM");
        assertThat(produce("alice", "not-her-password", "payments")).isInstanceOf(SaslAuthenticationException.class);

        controlPlane.desire(access(List.of(user("alice", 1, null)), List.of(), List.of(), List.of(), List.of()));
        assertThat(reconciler.pass().users()).as("applied before: nothing to do")
                .containsExactly(new AccessReport.UserState("alice", true, null, null));

        controlPlane.desire(access(List.of(), List.of("alice"), List.of(), List.of(), List.of()));
        assertThat(reconciler.pass().users()).containsExactly(new AccessReport.UserState("alice", false, null, null));
        eventually(() -> produce("alice", "alice-secret-1", "payments") instanceof SaslAuthenticationException,
                "a removed user is refused");
        assertThat(reconciler.pass().users()).as("removed and absent: nothing to do")
                .containsExactly(new AccessReport.UserState("alice", false, null, null));
    }

    @Test
    void anAclIsEnforcedAndOneDeletedBehindTheProductsBackIsRestored() throws Exception {
        DesiredAccess withoutAcl = access(List.of(user("carol", 1, "carol-secret")), List.of(), List.of(), List.of(),
                List.of(create("t2", "orders", 1, null, Map.of())));
        controlPlane.desire(withoutAcl);
        reconciler.pass();
        eventually(() -> produce("carol", "carol-secret", "orders") instanceof TopicAuthorizationException,
                "carol authenticates but may not write without an ACL");

        DesiredAccess.Acl write = allow("c1", "User:carol", "orders", "WRITE");
        DesiredAccess.Acl describe = allow("c2", "User:carol", "orders", "DESCRIBE");
        controlPlane.desire(access(List.of(user("carol", 1, null)), List.of(), List.of(write, describe), List.of(),
                List.of()));
        assertThat(reconciler.pass().acls()).extracting(AccessReport.AclState::created).containsExactly(true, true);
        eventually(() -> produce("carol", "carol-secret", "orders") == null, "carol writes with the ACL");
        assertThat(reconciler.pass().acls()).as("present: nothing created")
                .containsExactly(new AccessReport.AclState("c1", true, false, null),
                        new AccessReport.AclState("c2", true, false, null));

        try (Admin admin = kafka.admin()) {
            admin.deleteAcls(List.of(AclBindings.binding(write).toFilter())).all().get(30, TimeUnit.SECONDS);
        }
        eventually(() -> produce("carol", "carol-secret", "orders") instanceof TopicAuthorizationException,
                "the ACL deleted with a Kafka tool no longer lets carol write");
        assertThat(reconciler.pass().acls()).as("restored")
                .containsExactly(new AccessReport.AclState("c1", true, true, null),
                        new AccessReport.AclState("c2", true, false, null));
        eventually(() -> produce("carol", "carol-secret", "orders") == null, "carol writes again");

        controlPlane.desire(access(List.of(user("carol", 1, null)), List.of(), List.of(describe), List.of(write),
                List.of()));
        assertThat(reconciler.pass().acls()).containsExactly(new AccessReport.AclState("c2", true, false, null),
                new AccessReport.AclState("c1", false, false, null));
        assertThat(aclsOf("User:carol")).as("the exact filter deleted that ACL only")
                .containsExactly(AclBindings.binding(describe));
        eventually(() -> produce("carol", "carol-secret", "orders") instanceof TopicAuthorizationException,
                "a removed ACL is enforced away");
    }

    @Test
    void aUserDeletedBehindTheProductsBackIsReportedAbsentUntilItsPasswordIsGivenAgain() throws Exception {
        controlPlane.desire(access(List.of(user("dave", 2, "dave-secret")), List.of(), List.of(), List.of(), List.of()));
        assertThat(reconciler.pass().users()).containsExactly(new AccessReport.UserState("dave", true, 2L, null));

        try (Admin admin = kafka.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("dave",
                    ScramMechanism.SCRAM_SHA_512))).all().get(30, TimeUnit.SECONDS);
        }
        controlPlane.desire(access(List.of(user("dave", 2, null)), List.of(), List.of(), List.of(), List.of()));
        assertThat(reconciler.pass().users()).containsExactly(new AccessReport.UserState("dave", false, null, null));
        assertThat(reconciler.pass().users()).as("still absent while no password comes")
                .containsExactly(new AccessReport.UserState("dave", false, null, null));

        controlPlane.desire(access(List.of(user("dave", 2, "dave-secret")), List.of(), List.of(), List.of(), List.of()));
        assertThat(reconciler.pass().users()).containsExactly(new AccessReport.UserState("dave", true, 2L, null));
        eventually(() -> produce("dave", "dave-secret", "nowhere") instanceof TopicAuthorizationException,
                "dave authenticates again (and has no ACL)");
    }

    @Test
    void topicChangesAreAppliedInOrderAndInventoried() throws Exception {
        Map<String, String> retention = Map.of("retention.ms", "604800000");
        controlPlane.desire(access(List.of(), List.of(), List.of(), List.of(),
                List.of(create("i1", "inventory", 2, 1, retention), create("i2", "scratch", 1, null, Map.of()))));
        AccessReport created = reconciler.pass();
        assertThat(created.topicChanges()).containsExactly(new AccessReport.ChangeOutcome("i1", null),
                new AccessReport.ChangeOutcome("i2", null));
        assertThat(topic(created, "inventory")).isEqualTo(new AccessReport.Topic("inventory", 2, 1, retention, 0L));
        assertThat(created.topics()).extracting(AccessReport.Topic::name).as("no internal topic")
                .allMatch(name -> !name.startsWith("__"));

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(superUserProducer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("inventory", Integer.toString(i), "x".repeat(100)));
            }
            producer.flush();
        }
        Map<String, String> patch = new HashMap<>();
        patch.put("retention.ms", null);
        patch.put("cleanup.policy", "compact");
        controlPlane.desire(access(List.of(), List.of(), List.of(), List.of(),
                List.of(create("i1", "inventory", 2, 1, retention), update("i3", "inventory", 4, patch),
                        delete("i4", "scratch"))));
        AccessReport updated = reconciler.pass();
        assertThat(updated.topicChanges()).as("a create applied before (its report lost) is done")
                .containsExactly(new AccessReport.ChangeOutcome("i1", null), new AccessReport.ChangeOutcome("i3", null),
                        new AccessReport.ChangeOutcome("i4", null));
        AccessReport.Topic inventory = topic(updated, "inventory");
        assertThat(inventory.partitions()).isEqualTo(4);
        assertThat(inventory.configs()).isEqualTo(Map.of("cleanup.policy", "compact"));
        assertThat(inventory.sizeBytes()).as("the records written").isGreaterThan(100 * 100);
        assertThat(updated.topics()).extracting(AccessReport.Topic::name).doesNotContain("scratch");

        controlPlane.desire(access(List.of(), List.of(), List.of(), List.of(),
                List.of(update("i3", "inventory", 4, patch), delete("i4", "scratch"))));
        assertThat(reconciler.pass().topicChanges()).as("applied again: nothing to do, nothing fails")
                .containsExactly(new AccessReport.ChangeOutcome("i3", null), new AccessReport.ChangeOutcome("i4", null));
    }

    @Test
    void aFailingItemIsReportedAndThePassGoesOn() throws Exception {
        Map<String, String> badConfig = Map.of("retention.ms", "forever");
        DesiredAccess.Acl clusterNamedLikeATopic = new DesiredAccess.Acl("e1", "User:erin", "*", "CLUSTER", "events",
                "LITERAL", "ALTER", "ALLOW");
        controlPlane.desire(access(List.of(user("erin", 1, "erin-secret")), List.of(),
                List.of(clusterNamedLikeATopic, allow("e2", "User:erin", "events", "READ")), List.of(),
                List.of(create("e3", "events", 1, 3, Map.of()), create("e4", "events", 1, null, badConfig),
                        update("e5", "missing", 2, Map.of()), create("e6", "events", 3, null, Map.of()),
                        update("e7", "events", 1, Map.of()))));
        AccessReport report = reconciler.pass();

        assertThat(report.users()).containsExactly(new AccessReport.UserState("erin", true, 1L, null));
        assertThat(report.acls().get(0)).extracting(AccessReport.AclState::present, AccessReport.AclState::created)
                .containsExactly(false, false);
        assertThat(report.acls().get(0).error()).startsWith("InvalidRequestException");
        assertThat(report.acls().get(1)).isEqualTo(new AccessReport.AclState("e2", true, true, null));
        Map<String, String> errors = report.topicChanges().stream().collect(Collectors.toMap(
                AccessReport.ChangeOutcome::id, c -> String.valueOf(c.error())));
        assertThat(errors.get("e3")).startsWith("InvalidReplicationFactorException");
        assertThat(errors.get("e4")).startsWith("InvalidConfigurationException");
        assertThat(errors.get("e5")).isEqualTo("topic 'missing' does not exist");
        assertThat(errors.get("e6")).isEqualTo("null");
        assertThat(errors.get("e7")).startsWith("InvalidPartitionsException");
        assertThat(topic(report, "events").partitions()).isEqualTo(3);
    }

    @Test
    void onAnUnauthenticatedInstanceOnlyTopicsAreReconciled() throws Exception {
        AccessReconciler topicsOnly = new AccessReconciler(kafka::admin, controlPlane.ingest(), false);
        controlPlane.desire(access(List.of(user("frank", 1, "frank-secret")), List.of(),
                List.of(allow("f1", "User:frank", "plain", "READ")), List.of(),
                List.of(create("f2", "plain", 1, null, Map.of()))));
        AccessReport report = topicsOnly.pass();
        assertThat(report.users()).isEmpty();
        assertThat(report.acls()).isEmpty();
        assertThat(report.topicChanges()).containsExactly(new AccessReport.ChangeOutcome("f2", null));
        try (Admin admin = kafka.admin()) {
            assertThat(admin.describeUserScramCredentials().all().get(30, TimeUnit.SECONDS)).doesNotContainKey("frank");
        }
        assertThat(aclsOf("User:frank")).isEmpty();
    }

    @Test
    void onlyTheQuorumLeadersAgentReconciles() throws Exception {
        Integer[] leader = {1};
        AccessSchedule schedule = new AccessSchedule(0, () -> leader[0], reconciler);
        assertThat(schedule.tick()).isFalse();
        leader[0] = null;
        assertThat(schedule.tick()).as("no leader known").isFalse();
        assertThat(controlPlane.pulls.get()).isZero();
        leader[0] = 0;
        assertThat(schedule.tick()).isTrue();
        assertThat(controlPlane.pulls.get()).isEqualTo(1);
        assertThat(controlPlane.reports).hasSize(1);

        AccessSchedule refused = new AccessSchedule(0, () -> 0, new AccessReconciler(kafka::admin,
                new AccessIngest(controlPlane.ingestUrl(), ControlPlaneStandIn.INSTANCE, "not-the-token"), true));
        assertThat(refused.tick()).as("a failed pass is logged; the schedule goes on").isTrue();
    }

    @Test
    void aPassTheControlPlaneRefusesIsNotApplied() throws Exception {
        AccessReconciler wrongToken = new AccessReconciler(kafka::admin,
                new AccessIngest(controlPlane.ingestUrl(), ControlPlaneStandIn.INSTANCE, "not-the-token"), true);
        controlPlane.desire(access(List.of(), List.of(), List.of(), List.of(),
                List.of(create("g1", "refused", 1, null, Map.of()))));
        assertThatThrownBy(wrongToken::pass).isInstanceOf(AccessIngest.Refused.class)
                .hasMessageContaining("401").hasMessageNotContaining("not-the-token");
        try (Admin admin = kafka.admin()) {
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain("refused");
        }
    }

    // --- the desired access, as the control plane would send it

    static DesiredAccess access(List<DesiredAccess.User> users, List<String> removedUsers, List<DesiredAccess.Acl> acls,
                                List<DesiredAccess.Acl> removedAcls, List<DesiredAccess.TopicChange> changes) {
        return new DesiredAccess(1, users, removedUsers, acls, removedAcls, changes);
    }

    static DesiredAccess.User user(String name, long version, String password) {
        return new DesiredAccess.User(name, version, password);
    }

    static DesiredAccess.Acl allow(String id, String principal, String topic, String operation) {
        return new DesiredAccess.Acl(id, principal, "*", "TOPIC", topic, "LITERAL", operation, "ALLOW");
    }

    static DesiredAccess.TopicChange create(String id, String name, int partitions, Integer replicationFactor,
                                            Map<String, String> configs) {
        return new DesiredAccess.TopicChange(id, "CREATE", name, partitions, replicationFactor, configs);
    }

    static DesiredAccess.TopicChange update(String id, String name, Integer partitions, Map<String, String> configs) {
        return new DesiredAccess.TopicChange(id, "UPDATE", name, partitions, null, configs);
    }

    static DesiredAccess.TopicChange delete(String id, String name) {
        return new DesiredAccess.TopicChange(id, "DELETE", name, null, null, null);
    }

    // --- what clients see

    /** Null when a record was written; else why not (the root cause). */
    static Throwable produce(String user, String password, String topic) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.clientBootstrap());
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        props.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"" + user + "\" password=\"" + password + "\";");
        // Without idempotence a producer needs WRITE on the topic only, so a refusal names the topic.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", "v")).get(15, TimeUnit.SECONDS);
            return null;
        } catch (Exception e) {
            Throwable t = e;
            while (t.getCause() != null) {
                t = t.getCause();
            }
            return t;
        }
    }

    static Properties superUserProducer() {
        Properties props = new Properties();
        props.putAll(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.internalBootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
        return props;
    }

    static Set<AclBinding> aclsOf(String principal) throws Exception {
        try (Admin admin = kafka.admin()) {
            return admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS).stream()
                    .filter(b -> b.entry().principal().equals(principal)).collect(Collectors.toSet());
        }
    }

    static AccessReport.Topic topic(AccessReport report, String name) {
        return report.topics().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    static void eventually(Supplier<Boolean> condition, String what) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (!condition.get()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within 20 s: " + what);
            }
            Thread.sleep(250);
        }
    }
}
