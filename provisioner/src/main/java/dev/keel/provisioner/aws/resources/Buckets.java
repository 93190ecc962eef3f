package dev.keel.provisioner.aws.resources;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.Json;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketLocationConstraint;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * The data and ops buckets, found by their deterministic names. A bucket is configured (encryption, public access
 * block, lifecycle) before it is tagged, so a bucket without Keel's tags is one whose configuration may be
 * unfinished; its policy (TLS only) is compared as it is, so one deleted or changed outside Keel is put back. A delete
 * with data retention keeps the data bucket, with its data, tagged with when its retention ends; the control plane
 * deletes it then ({@link #deleteRetained}).
 */
public final class Buckets implements ManagedResource {

    private static final String CONFIGURED = "configured";
    private static final String POLICY = "policy";
    /** When a kept data bucket's retention ends, as its tag says. */
    public static final String RETAINED_UNTIL = "retainedUntil";
    /** The lifecycle rule that deletes a kept bucket's data after its retention, should the control plane not. */
    public static final String RETENTION_BACKSTOP = "expire-after-retention";

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        List<ObservedState.Resource> found = new ArrayList<>();
        for (String[] bucket : List.of(new String[]{"data-bucket", "-data"}, new String[]{"ops-bucket", "-ops"})) {
            String name = DesiredState.prefix(instanceId) + bucket[1];
            Map<String, String> tags = tags(aws.s3(), name);
            if (tags == null) {
                continue;
            }
            Map<String, String> attributes = new HashMap<>();
            attributes.put(CONFIGURED, String.valueOf(instanceId.toString().equals(tags.get(DesiredState.TAG_INSTANCE))));
            String policy = policy(aws.s3(), name);
            if (policy != null) {
                attributes.put(POLICY, policy);
            }
            if (tags.containsKey(DesiredState.TAG_RETAIN_UNTIL)) {
                attributes.put(RETAINED_UNTIL, tags.get(DesiredState.TAG_RETAIN_UNTIL));
            }
            found.add(new ObservedState.Resource(ObservedState.S3_BUCKET, bucket[0], name, attributes));
        }
        return found;
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        List<ResourceChange> changes = new ArrayList<>();
        for (DesiredState.Bucket bucket : buckets(desired)) {
            var seen = observed.find(ObservedState.S3_BUCKET, bucket.logicalName());
            if (seen.isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.S3_BUCKET, bucket.logicalName(), null,
                        "bucket " + bucket.name()));
                continue;
            }
            List<String> off = new ArrayList<>();
            if (!"true".equals(seen.get().attribute(CONFIGURED))) {
                off.add("its configuration is unfinished (it lacks Keel's tags)");
            }
            if (!Json.same(seen.get().attribute(POLICY), bucket.policy().json())) {
                off.add(seen.get().attribute(POLICY) == null ? "its policy is missing" : "its policy differs");
            }
            if (!off.isEmpty()) {
                changes.add(new ResourceChange(Action.UPDATE, ObservedState.S3_BUCKET, bucket.logicalName(),
                        seen.get().id(), String.join(", ", off) + ": set it up again"));
            }
        }
        return changes;
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        for (ResourceChange change : changes) {
            DesiredState.Bucket bucket = buckets(ctx.desired()).stream()
                    .filter(b -> b.logicalName().equals(change.logicalName())).findFirst().orElseThrow();
            if (change.action() == Action.CREATE) {
                create(ctx, bucket.name());
            }
            configure(ctx, bucket);
        }
        if (!changes.isEmpty()) {
            ctx.observedOwn(buckets(ctx.desired()).stream().map(b -> new ObservedState.Resource(
                    ObservedState.S3_BUCKET, b.logicalName(), b.name(), Map.of(CONFIGURED, "true",
                    POLICY, b.policy().json()))).toList());
        }
    }

    /** The data bucket of a delete with data retention is kept (and tagged with when its retention ends). */
    @Override
    public ResourceChange deleting(DesiredState desired, ResourceChange delete) {
        DesiredState.Bucket data = desired.dataBucket();
        if (data.retainedUntil() == null || !delete.logicalName().equals(data.logicalName())) {
            return delete;
        }
        return new ResourceChange(Action.UPDATE, delete.type(), delete.logicalName(), delete.id(),
                "kept with its data until " + data.retainedUntil() + " (data retention), then emptied and deleted");
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        List<ObservedState.Resource> kept = new ArrayList<>();
        for (ResourceChange change : deletes) {
            if (change.action() == Action.UPDATE) {
                kept.add(retain(ctx, ctx.desired().dataBucket()));
            } else {
                delete(ctx, change.id());
            }
        }
        ctx.observedOwn(kept);
    }

    /**
     * Empties and deletes the data bucket a delete kept, once its retention is over; nothing when it is gone already.
     * The bucket's name is the instance's own, so nothing else can be deleted by it.
     */
    public void deleteRetained(StepContext ctx) {
        String name = ctx.desired().dataBucket().name();
        if (tags(ctx.aws().s3(), name) != null) {
            delete(ctx, name);
        }
    }

    /**
     * Puts the retention backstop on the kept bucket, then tags it with when its retention ends: the customer sees in
     * their account why it is still there, and S3 deletes the data even if the control plane never comes back.
     */
    private static ObservedState.Resource retain(StepContext ctx, DesiredState.Bucket bucket) {
        putLifecycle(ctx.aws().s3(), bucket, List.of(retentionBackstop(bucket.retainedUntil(), Instant.now())));
        List<Tag> tags = new ArrayList<>();
        ctx.desired().tags(bucket.logicalName()).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        String until = bucket.retainedUntil().toString();
        tags.add(Tag.builder().key(DesiredState.TAG_RETAIN_UNTIL).value(until).build());
        AwsCalls.run("s3:PutBucketTagging", () -> ctx.aws().s3().putBucketTagging(b -> b.bucket(bucket.name())
                .tagging(t -> t.tagSet(tags))));
        return new ObservedState.Resource(ObservedState.S3_BUCKET, bucket.logicalName(), bucket.name(),
                Map.of(CONFIGURED, "true", RETAINED_UNTIL, until));
    }

    private static List<DesiredState.Bucket> buckets(DesiredState desired) {
        return List.of(desired.dataBucket(), desired.opsBucket());
    }

    private static void create(StepContext ctx, String name) {
        try {
            ctx.aws().s3().createBucket(b -> {
                b.bucket(name);
                if (!"us-east-1".equals(ctx.desired().region())) {
                    b.createBucketConfiguration(c -> c.locationConstraint(
                            BucketLocationConstraint.fromValue(ctx.desired().region())));
                }
            });
        } catch (S3Exception e) {
            if ("BucketAlreadyExists".equals(AwsCalls.errorCode(e))) {
                throw new ProvisioningException("BUCKET_NAME_TAKEN", "The S3 bucket name " + name
                        + " belongs to another account.", false);
            }
            // BucketAlreadyOwnedByYou: an earlier attempt created it and its answer was lost.
            if (!"BucketAlreadyOwnedByYou".equals(AwsCalls.errorCode(e))) {
                throw AwsCalls.classify("s3:CreateBucket", e);
            }
        } catch (SdkException e) {
            throw AwsCalls.classify("s3:CreateBucket", e);
        }
    }

    /** Every setting, idempotently; the tags last, as the mark of a finished configuration. */
    private static void configure(StepContext ctx, DesiredState.Bucket bucket) {
        S3Client s3 = ctx.aws().s3();
        String name = bucket.name();
        AwsCalls.run("s3:PutBucketPublicAccessBlock", () -> s3.putPublicAccessBlock(b -> b.bucket(name)
                .publicAccessBlockConfiguration(c -> c.blockPublicAcls(true).ignorePublicAcls(true)
                        .blockPublicPolicy(true).restrictPublicBuckets(true))));
        AwsCalls.run("s3:PutEncryptionConfiguration", () -> s3.putBucketEncryption(b -> b.bucket(name)
                .serverSideEncryptionConfiguration(c -> c.rules(r -> r.applyServerSideEncryptionByDefault(
                        d -> d.sseAlgorithm(ServerSideEncryption.AES256)).bucketKeyEnabled(true)))));
        putLifecycle(s3, bucket, List.of());
        AwsCalls.run("s3:PutBucketPolicy", () -> s3.putBucketPolicy(b -> b.bucket(name)
                .policy(bucket.policy().json())));
        List<Tag> tags = new ArrayList<>();
        ctx.desired().tags(bucket.logicalName()).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        AwsCalls.run("s3:PutBucketTagging", () -> s3.putBucketTagging(b -> b.bucket(name)
                .tagging(t -> t.tagSet(tags))));
    }

    /**
     * The bucket's whole lifecycle configuration, with {@code extra} rules: S3 replaces the configuration with each
     * put, so every rule the bucket keeps is written each time.
     */
    private static void putLifecycle(S3Client s3, DesiredState.Bucket bucket, List<LifecycleRule> extra) {
        List<LifecycleRule> rules = new ArrayList<>();
        rules.add(LifecycleRule.builder().id("abort-incomplete-uploads").status(ExpirationStatus.ENABLED)
                .filter(f -> f.prefix("")).abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(7)).build());
        if (bucket.expireAfterDays() != null) {
            rules.add(LifecycleRule.builder().id("expire-ops-data").status(ExpirationStatus.ENABLED)
                    .filter(f -> f.prefix("")).expiration(e -> e.days(bucket.expireAfterDays())).build());
        }
        rules.addAll(extra);
        AwsCalls.run("s3:PutLifecycleConfiguration", () -> s3.putBucketLifecycleConfiguration(b -> b
                .bucket(bucket.name()).lifecycleConfiguration(c -> c.rules(rules))));
    }

    /**
     * Expires a kept bucket's objects on the first midnight (UTC) at least a day after its retention ends: S3 takes
     * only a midnight as an expiry date. Keel's buckets are unversioned; in one a customer versioned, the objects the
     * expiry turns into noncurrent versions go as many days later as the retention still had to run when it was
     * kept, so a version overwritten during the retention is kept at least until the expiry too. Unfinished uploads
     * go by the standing rule, a week after they began (S3 expires uploads by age only).
     */
    static LifecycleRule retentionBackstop(Instant retainedUntil, Instant now) {
        Instant dayAfter = retainedUntil.plus(Duration.ofDays(1));
        Instant midnight = dayAfter.truncatedTo(ChronoUnit.DAYS);
        Instant on = midnight.equals(dayAfter) ? midnight : midnight.plus(Duration.ofDays(1));
        int noncurrentDays = (int) Math.max(1, Duration.between(now, on).toDays() + 1);
        return LifecycleRule.builder().id(RETENTION_BACKSTOP).status(ExpirationStatus.ENABLED)
                .filter(f -> f.prefix("")).expiration(e -> e.date(on))
                .noncurrentVersionExpiration(n -> n.noncurrentDays(noncurrentDays)).build();
    }

    /** Empties the bucket (every version, delete marker and unfinished upload) and deletes it. */
    private static void delete(StepContext ctx, String name) {
        S3Client s3 = ctx.aws().s3();
        List<MultipartUpload> uploads = AwsCalls.call("s3:ListBucketMultipartUploads",
                () -> s3.listMultipartUploadsPaginator(b -> b.bucket(name)).uploads().stream().toList());
        uploads.forEach(u -> AwsCalls.run("s3:AbortMultipartUpload", () -> s3.abortMultipartUpload(b -> b
                .bucket(name).key(u.key()).uploadId(u.uploadId()))));
        List<ObjectIdentifier> versions = AwsCalls.call("s3:ListBucketVersions", () -> {
            List<ObjectIdentifier> found = new ArrayList<>();
            for (var page : s3.listObjectVersionsPaginator(b -> b.bucket(name))) {
                page.versions().forEach(v -> found.add(ObjectIdentifier.builder().key(v.key())
                        .versionId(v.versionId()).build()));
                page.deleteMarkers().forEach(m -> found.add(ObjectIdentifier.builder().key(m.key())
                        .versionId(m.versionId()).build()));
            }
            return found;
        });
        for (int i = 0; i < versions.size(); i += 1000) {
            List<ObjectIdentifier> part = versions.subList(i, Math.min(versions.size(), i + 1000));
            AwsCalls.run("s3:DeleteObjectVersion", () -> s3.deleteObjects(b -> b.bucket(name)
                    .delete(d -> d.objects(part).quiet(true))));
        }
        try {
            s3.deleteBucket(b -> b.bucket(name));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw AwsCalls.classify("s3:DeleteBucket", e);
            }
        } catch (SdkException e) {
            throw AwsCalls.classify("s3:DeleteBucket", e);
        }
        ctx.await(ObservedState.S3_BUCKET, "bucket " + name + " to be gone", null, () -> tags(s3, name) == null);
    }

    /** The bucket's tags (empty when it has none), or null when there is no such bucket. */
    private static Map<String, String> tags(S3Client s3, String name) {
        try {
            Map<String, String> tags = new HashMap<>();
            s3.getBucketTagging(b -> b.bucket(name)).tagSet().forEach(t -> tags.put(t.key(), t.value()));
            return tags;
        } catch (S3Exception e) {
            if ("NoSuchTagSet".equals(AwsCalls.errorCode(e))) {
                return Map.of();
            }
            if (e.statusCode() == 404) {
                return null;
            }
            throw AwsCalls.classify("s3:GetBucketTagging", e);
        } catch (SdkException e) {
            throw AwsCalls.classify("s3:GetBucketTagging", e);
        }
    }

    private static String policy(S3Client s3, String name) {
        try {
            return s3.getBucketPolicy(b -> b.bucket(name)).policy();
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return null;
            }
            throw AwsCalls.classify("s3:GetBucketPolicy", e);
        } catch (SdkException e) {
            throw AwsCalls.classify("s3:GetBucketPolicy", e);
        }
    }
}
