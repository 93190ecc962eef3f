package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.WalType;
import dev.keel.provisioner.aws.resources.Buckets;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;

/** The AWS driver against a real LocalStack ({@code KEEL_AWS_ENDPOINT}). */
class AwsProvisioningDriverIT {

    static final java.util.concurrent.atomic.AtomicInteger STEP_RETRIES = new java.util.concurrent.atomic.AtomicInteger();
    static final ImpairedStatuses STATUSES = new ImpairedStatuses();
    static LocalStackAccount aws;
    static AwsProvisioningDriver driver;

    @BeforeAll
    static void account() {
        aws = new LocalStackAccount();
        driver = new AwsProvisioningDriver(aws.settings().withInterceptors(List.of(STATUSES)));
    }

    @AfterAll
    static void close() {
        if (driver != null) {
            driver.close();
        }
    }

    ProvisioningTarget target(WalType wal, int brokers, int zones) {
        return new ProvisioningTarget(UUID.randomUUID(), "it-" + wal.name().toLowerCase(), LocalStackAccount.REGION,
                aws.account, aws.vpcId, aws.zones.subList(0, zones), wal, brokers, null, null, "t3.micro", brokers,
                "4.1.0", Inventory.EMPTY, null);
    }

    /** Runs every step of a change like the operation runner: in order, retrying retryable failures. */
    static ProvisioningTarget run(AwsProvisioningDriver d, ChangeKind kind, ProvisioningTarget target) {
        ProvisioningTarget current = target;
        for (String step : d.steps(kind, target)) {
            for (int attempt = 1; ; attempt++) {
                try {
                    current = current.withObserved(d.apply(step, current));
                    break;
                } catch (ProvisioningException e) {
                    if (!e.retryable() || attempt >= 5) {
                        throw e;
                    }
                    STEP_RETRIES.incrementAndGet();
                    System.out.println("step " + step + " attempt " + attempt + " failed, retrying: " + e.getMessage());
                }
            }
        }
        return current;
    }

    static Set<String> ids(ProvisioningTarget target) {
        return driver.sweep(target).stream().map(r -> r.type() + ":" + r.logicalName() + ":" + r.id())
                .collect(Collectors.toSet());
    }

    static List<Instance> instances(ProvisioningTarget t) {
        return aws.ec2.describeInstances(b -> b.filters(
                        Filter.builder().name("tag:byoc:instance-id").values(t.instanceId().toString()).build(),
                        Filter.builder().name("instance-state-name").values("pending", "running").build()))
                .reservations().stream().flatMap(r -> r.instances().stream()).toList();
    }

    static Map<String, String> tags(List<software.amazon.awssdk.services.ec2.model.Tag> tags) {
        return tags.stream().collect(Collectors.toMap(software.amazon.awssdk.services.ec2.model.Tag::key,
                software.amazon.awssdk.services.ec2.model.Tag::value));
    }

    @Test
    void ebsInOneZone_createIsIdempotent_scalesUpAndDown_deleteLeavesNothing() {
        ProvisioningTarget t = run(driver, ChangeKind.CREATE, target(WalType.EBS, 3, 1));
        String id = t.instanceId().toString();

        // resources exist, with tags
        assertThat(t.observed().brokers()).hasSize(3).allSatisfy(b -> {
            assertThat(b.availabilityZone()).isEqualTo("us-east-1a");
            assertThat(b.address()).endsWith(":9092");
        });
        assertThat(t.observed().bootstrapServers().split(",")).hasSize(3);
        List<Instance> brokers = instances(t);
        assertThat(brokers).hasSize(3).allSatisfy(i -> assertThat(tags(i.tags()))
                .containsEntry("byoc:instance-id", id).containsEntry("byoc:managed-by", "keel")
                .containsKey("byoc:node-id").containsKey("byoc:resource"));
        assertThat(brokers).extracting(i -> tags(i.tags()).get("byoc:resource"))
                .containsExactlyInAnyOrder("broker-0", "broker-1", "broker-2");
        var walVolumes = aws.ec2.describeVolumes(b -> b.filters(
                Filter.builder().name("tag:byoc:instance-id").values(id).build(),
                Filter.builder().name("tag:byoc:resource").values("wal-volume-0", "wal-volume-1", "wal-volume-2")
                        .build())).volumes();
        assertThat(walVolumes).hasSize(3).allSatisfy(v -> {
            assertThat(v.volumeTypeAsString()).isEqualTo("gp3");
            assertThat(v.availabilityZone()).isEqualTo("us-east-1a");
            assertThat(v.attachments()).singleElement().satisfies(a ->
                    assertThat(brokers).extracting(Instance::instanceId).contains(a.instanceId()));
        });
        var sg = aws.ec2.describeSecurityGroups(b -> b.filters(
                Filter.builder().name("tag:byoc:instance-id").values(id).build())).securityGroups();
        assertThat(sg).singleElement().satisfies(g -> {
            assertThat(g.vpcId()).isEqualTo(aws.vpcId);
            assertThat(g.ipPermissions()).anySatisfy(p -> {
                assertThat(p.fromPort()).isEqualTo(9092);
                assertThat(p.ipRanges()).extracting(r -> r.cidrIp()).contains("10.42.0.0/16");
            });
            assertThat(g.ipPermissions()).anySatisfy(p -> {
                assertThat(p.fromPort()).isEqualTo(9093);
                assertThat(p.userIdGroupPairs()).extracting(x -> x.groupId()).contains(g.groupId());
                assertThat(p.ipRanges()).isEmpty();
            });
        });
        DesiredState desired = driver.desired(t);
        var bucketTags = aws.s3.getBucketTagging(b -> b.bucket(desired.dataBucket().name())).tagSet();
        assertThat(bucketTags).anySatisfy(tag -> {
            assertThat(tag.key()).isEqualTo("byoc:instance-id");
            assertThat(tag.value()).isEqualTo(id);
        });
        assertThat(aws.s3.getBucketLifecycleConfiguration(b -> b.bucket(desired.opsBucket().name())).rules())
                .anySatisfy(r -> assertThat(r.expiration()).isNotNull().extracting(e -> e.days()).isEqualTo(30));
        var role = aws.iam.getRole(b -> b.roleName(desired.role().roleName())).role();
        assertThat(role.path()).isEqualTo("/keel/");
        assertThat(aws.iam.listRoleTags(b -> b.roleName(role.roleName())).tags())
                .anySatisfy(tag -> assertThat(tag.value()).isEqualTo(id));
        assertThat(aws.iam.getRolePolicy(b -> b.roleName(role.roleName()).policyName("keel-broker-buckets"))
                .policyDocument()).contains(desired.dataBucket().name());
        assertThat(aws.iam.getInstanceProfile(b -> b.instanceProfileName(desired.role().profileName()))
                .instanceProfile().roles()).extracting(r -> r.roleName()).containsExactly(role.roleName());

        // re-running every step creates nothing new; plan says nothing to do
        Set<String> before = ids(t);
        assertThat(before).hasSizeGreaterThanOrEqualTo(2 + 2 + 1 + 1 + 3 + 3);
        ProvisioningTarget again = t;
        for (String step : driver.steps(ChangeKind.CREATE, t)) {
            again = again.withObserved(driver.apply(step, again));
        }
        assertThat(ids(again)).isEqualTo(before);
        assertThat(driver.plan(ChangeKind.CREATE, t, true)).isEmpty();
        assertThat(driver.plan(ChangeKind.REPAIR, t, true)).isEmpty();

        // scale up 3 -> 5: only nodes 3 and 4 are new
        ProvisioningTarget bigger = t.resized(5, 5, null, null);
        assertThat(driver.plan(ChangeKind.UPDATE, bigger, true)).extracting(ResourceChange::toString)
                .anyMatch(s -> s.startsWith("+ ec2-instance broker-3"))
                .anyMatch(s -> s.startsWith("+ ec2-instance broker-4"))
                .noneMatch(s -> s.startsWith("-"));
        Set<String> instanceIdsBefore = instances(t).stream().map(Instance::instanceId).collect(Collectors.toSet());
        bigger = run(driver, ChangeKind.UPDATE, bigger);
        assertThat(bigger.observed().brokers()).extracting(Inventory.Broker::nodeId).containsExactly(0, 1, 2, 3, 4);
        assertThat(instances(bigger)).extracting(Instance::instanceId).containsAll(instanceIdsBefore).hasSize(5);
        assertThat(driver.observe(bigger).ofType(ObservedState.EBS_VOLUME)).hasSize(5);

        // scale down 5 -> 2: nodes 4, 3, 2 retired with their WAL volumes
        ProvisioningTarget smaller = bigger.resized(2, 2, null, null);
        assertThat(driver.plan(ChangeKind.UPDATE, smaller, true)).filteredOn(c -> c.action() == ResourceChange.Action.DELETE
                && c.type().equals(ObservedState.EC2_INSTANCE)).extracting(ResourceChange::logicalName)
                .containsExactly("broker-4", "broker-3", "broker-2");
        smaller = run(driver, ChangeKind.UPDATE, smaller);
        assertThat(smaller.observed().brokers()).extracting(Inventory.Broker::nodeId).containsExactly(0, 1);
        assertThat(instances(smaller)).hasSize(2);
        assertThat(driver.observe(smaller).ofType(ObservedState.EBS_VOLUME)).extracting(ObservedState.Resource::logicalName)
                .containsExactlyInAnyOrder("wal-volume-0", "wal-volume-1");

        // a broker EC2 reports impaired is replaced: same node, a new machine, its WAL volume moved over
        String impaired = instances(smaller).stream().filter(i -> "broker-1".equals(tags(i.tags()).get("byoc:resource")))
                .findFirst().orElseThrow().instanceId();
        STATUSES.impaired().add(impaired);
        assertThat(driver.plan(ChangeKind.REPAIR, smaller, true)).extracting(ResourceChange::toString).containsExactly(
                "-/+ ec2-instance broker-1 (" + impaired + "): EC2 reports its status checks impaired: a new instance "
                        + "takes over node 1");
        ProvisioningTarget repaired = run(driver, ChangeKind.REPAIR, smaller);
        String replacement = instances(repaired).stream().filter(i -> "broker-1".equals(tags(i.tags()).get("byoc:resource")))
                .findFirst().orElseThrow().instanceId();
        assertThat(replacement).isNotEqualTo(impaired);
        assertThat(instances(repaired)).hasSize(2);
        assertThat(driver.observe(repaired).find(ObservedState.EBS_VOLUME, "wal-volume-1").orElseThrow()
                .attribute("attachedTo")).isEqualTo(replacement);
        assertThat(driver.plan(ChangeKind.REPAIR, repaired, true)).as("the impaired machine is gone").isEmpty();

        // delete: everything goes, the sweep finds nothing
        ProvisioningTarget deleted = run(driver, ChangeKind.DELETE, repaired);
        assertThat(deleted.observed()).isEqualTo(Inventory.EMPTY);
        assertThat(driver.sweep(deleted)).isEmpty();
        assertThat(aws.s3.listBuckets().buckets()).noneMatch(b -> b.name().contains(id));
        // deleting again is a no-op
        assertThat(run(driver, ChangeKind.DELETE, deleted).observed()).isEqualTo(Inventory.EMPTY);
    }

    @Test
    void s3WalInThreeZones_spreadsBrokers_andDeletes() {
        ProvisioningTarget t = run(driver, ChangeKind.CREATE, target(WalType.S3, 3, 3));
        assertThat(t.observed().brokers()).extracting(Inventory.Broker::availabilityZone)
                .containsExactly("us-east-1a", "us-east-1b", "us-east-1c");
        assertThat(instances(t)).extracting(Instance::subnetId).containsExactlyInAnyOrderElementsOf(
                aws.zones.stream().map(ProvisioningTarget.Zone::subnetId).toList());
        assertThat(driver.observe(t).ofType(ObservedState.EBS_VOLUME)).isEmpty();
        assertThat(t.observed().resources()).extracting(Inventory.CloudResource::type)
                .contains("s3-bucket", "iam-role", "iam-instance-profile", "security-group", "launch-template");
        run(driver, ChangeKind.DELETE, t);
        assertThat(driver.sweep(t)).isEmpty();
    }

    @Test
    void aDeleteWithRetentionKeepsTheDataBucketWithItsDataTaggedUntilWhenThenItsDeletion() {
        ProvisioningTarget t = run(driver, ChangeKind.CREATE, target(WalType.S3, 1, 1));
        String bucket = DesiredState.prefix(t.instanceId()) + "-data";
        aws.s3.putObject(b -> b.bucket(bucket).key("topic-0/segment-0"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("records"));
        Instant until = Instant.parse("2026-12-02T16:40:00Z");
        ProvisioningTarget retaining = t.retainingDataUntil(until);

        assertThat(driver.plan(ChangeKind.DELETE, retaining, true)).filteredOn(c -> c.logicalName().equals("data-bucket"))
                .singleElement().satisfies(c -> {
                    assertThat(c.action()).isEqualTo(ResourceChange.Action.UPDATE);
                    assertThat(c.reason()).contains("kept with its data until 2026-12-02T16:40:00Z");
                });
        ProvisioningTarget deleted = run(driver, ChangeKind.DELETE, retaining);

        assertThat(driver.sweep(deleted)).singleElement().satisfies(kept -> {
            assertThat(kept.id()).isEqualTo(bucket);
            assertThat(kept.attribute(Buckets.RETAINED_UNTIL)).isEqualTo("2026-12-02T16:40:00Z");
        });
        assertThat(deleted.observed().resources()).as("recorded while it exists")
                .containsExactly(new Inventory.CloudResource(ObservedState.S3_BUCKET, bucket));
        assertThat(aws.s3.getBucketTagging(b -> b.bucket(bucket)).tagSet())
                .anySatisfy(tag -> assertThat(tag.key() + "=" + tag.value())
                        .isEqualTo("byoc:retain-until=2026-12-02T16:40:00Z"));
        assertThat(aws.s3.listObjectsV2(b -> b.bucket(bucket)).contents()).as("its data is kept").hasSize(1);
        // S3 deletes it a day after the retention should the control plane not: the whole configuration, read back.
        assertThat(aws.s3.getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules())
                .extracting(rule -> rule.id()).containsExactlyInAnyOrder("abort-incomplete-uploads",
                        Buckets.RETENTION_BACKSTOP);
        assertThat(aws.s3.getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules())
                .filteredOn(rule -> rule.id().equals(Buckets.RETENTION_BACKSTOP)).singleElement().satisfies(rule -> {
                    assertThat(rule.expiration().date()).isEqualTo(Instant.parse("2026-12-04T00:00:00Z"));
                    assertThat(rule.noncurrentVersionExpiration().noncurrentDays()).isPositive();
                    assertThat(rule.statusAsString()).isEqualTo("Enabled");
                });
        assertThat(instances(t)).isEmpty();

        driver.deleteRetainedData(deleted);
        assertThat(driver.sweep(deleted)).isEmpty();
        driver.deleteRetainedData(deleted);
        assertThat(driver.sweep(deleted)).as("deleting it again changes nothing").isEmpty();
    }

    @Test
    void thirtyPercentInjectedTransientFailuresStillConverge() {
        FaultInjectionInterceptor faults = new FaultInjectionInterceptor(0.3, Set.of(), 42);
        try (AwsProvisioningDriver flaky = new AwsProvisioningDriver(aws.settings().withInterceptors(List.of(faults)))) {
            ProvisioningTarget t = run(flaky, ChangeKind.CREATE, target(WalType.EBS, 2, 3));
            assertThat(instances(t)).hasSize(2);
            Set<String> before = ids(t);
            run(flaky, ChangeKind.REPAIR, t);
            assertThat(ids(t)).isEqualTo(before);
            run(flaky, ChangeKind.DELETE, t);
            assertThat(driver.sweep(t)).isEmpty();
            assertThat(faults.injected()).isGreaterThan(20);
            assertThat((double) faults.injected() / faults.seen()).isBetween(0.2, 0.4);
            System.out.printf("fault injection: %d of %d attempts failed, %d step retries%n", faults.injected(),
                    faults.seen(), STEP_RETRIES.get());
        }
    }

    @Test
    void everyCallIntoTheAccountGoesThroughOneCachedAssumeRole() {
        CallRecorder recorder = new CallRecorder();
        try (AwsProvisioningDriver recorded = new AwsProvisioningDriver(
                aws.settings().withInterceptors(List.of(recorder)))) {
            ProvisioningTarget t = target(WalType.S3, 1, 1);
            run(recorded, ChangeKind.CREATE, t);
            run(recorded, ChangeKind.DELETE, t);
            List<String> operations = recorder.take();
            assertThat(operations).first().isEqualTo("AssumeRole");
            assertThat(operations).filteredOn("AssumeRole"::equals).hasSize(1);
            assertThat(operations).hasSizeGreaterThan(20);
        }
    }

    @Test
    void deniedActionFailsTheStepForGoodAndNamesIt() {
        FaultInjectionInterceptor deny = new FaultInjectionInterceptor(0, Set.of("RunInstances"), 1);
        try (AwsProvisioningDriver denied = new AwsProvisioningDriver(aws.settings().withInterceptors(List.of(deny)))) {
            ProvisioningTarget t = target(WalType.S3, 1, 1);
            assertThatThrownBy(() -> run(denied, ChangeKind.CREATE, t))
                    .isInstanceOfSatisfying(ProvisioningException.class, e -> {
                        assertThat(e.retryable()).isFalse();
                        assertThat(e.code()).isEqualTo(AwsCalls.ACCESS_DENIED);
                        assertThat(e.getMessage()).contains("ec2:RunInstances");
                    });
            run(driver, ChangeKind.DELETE, t);
            assertThat(driver.sweep(t)).isEmpty();
        }
    }
}
