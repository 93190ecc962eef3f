package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.List;

import dev.keel.provisioner.ProvisioningException;
import software.amazon.awssdk.services.s3.model.BucketLocationConstraint;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.Tag;

/** Data and ops buckets: find-or-create by deterministic name, then (idempotently) configure. */
final class S3Ops {

    private S3Ops() {
    }

    static boolean exists(AwsClients.Customer aws, String bucket) {
        try {
            aws.s3().headBucket(b -> b.bucket(bucket));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                return false;
            }
            throw AwsCalls.classify("s3:ListBucket", e);
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            throw AwsCalls.classify("s3:ListBucket", e);
        }
    }

    static void ensureBuckets(StepContext ctx) {
        for (DesiredState.Bucket bucket : List.of(ctx.desired().dataBucket(), ctx.desired().opsBucket())) {
            ensure(ctx, bucket);
        }
    }

    private static void ensure(StepContext ctx, DesiredState.Bucket bucket) {
        var s3 = ctx.aws().s3();
        String name = bucket.name();
        if (!exists(ctx.aws(), name)) {
            try {
                s3.createBucket(b -> {
                    b.bucket(name);
                    if (!"us-east-1".equals(ctx.target().region())) {
                        b.createBucketConfiguration(c -> c.locationConstraint(
                                BucketLocationConstraint.fromValue(ctx.target().region())));
                    }
                });
            } catch (S3Exception e) {
                if ("BucketAlreadyExists".equals(AwsCalls.errorCode(e))) {
                    throw new ProvisioningException("BUCKET_NAME_TAKEN", "The S3 bucket name " + name
                            + " belongs to another account.", false);
                }
                if (!"BucketAlreadyOwnedByYou".equals(AwsCalls.errorCode(e))) {
                    throw AwsCalls.classify("s3:CreateBucket", e);
                }
            } catch (software.amazon.awssdk.core.exception.SdkException e) {
                throw AwsCalls.classify("s3:CreateBucket", e);
            }
        }
        List<Tag> tags = new ArrayList<>();
        ctx.desired().tags(bucket.logicalName()).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
        AwsCalls.run("s3:PutBucketTagging", () -> s3.putBucketTagging(b -> b.bucket(name)
                .tagging(t -> t.tagSet(tags))));
        AwsCalls.run("s3:PutBucketPublicAccessBlock", () -> s3.putPublicAccessBlock(b -> b.bucket(name)
                .publicAccessBlockConfiguration(c -> c.blockPublicAcls(true).ignorePublicAcls(true)
                        .blockPublicPolicy(true).restrictPublicBuckets(true))));
        AwsCalls.run("s3:PutEncryptionConfiguration", () -> s3.putBucketEncryption(b -> b.bucket(name)
                .serverSideEncryptionConfiguration(c -> c.rules(r -> r.applyServerSideEncryptionByDefault(
                        d -> d.sseAlgorithm(ServerSideEncryption.AES256)).bucketKeyEnabled(true)))));
        List<LifecycleRule> rules = new ArrayList<>();
        rules.add(LifecycleRule.builder().id("abort-incomplete-uploads").status(ExpirationStatus.ENABLED)
                .filter(f -> f.prefix("")).abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(7)).build());
        if (bucket.expireAfterDays() != null) {
            rules.add(LifecycleRule.builder().id("expire-ops-data").status(ExpirationStatus.ENABLED)
                    .filter(f -> f.prefix("")).expiration(e -> e.days(bucket.expireAfterDays())).build());
        }
        AwsCalls.run("s3:PutLifecycleConfiguration", () -> s3.putBucketLifecycleConfiguration(b -> b.bucket(name)
                .lifecycleConfiguration(c -> c.rules(rules))));
    }

    /** Empties (all versions, delete markers, unfinished uploads) and deletes both buckets. */
    static void deleteBuckets(StepContext ctx) {
        for (DesiredState.Bucket bucket : List.of(ctx.desired().dataBucket(), ctx.desired().opsBucket())) {
            String name = bucket.name();
            if (!exists(ctx.aws(), name)) {
                continue;
            }
            var s3 = ctx.aws().s3();
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
            } catch (software.amazon.awssdk.core.exception.SdkException e) {
                throw AwsCalls.classify("s3:DeleteBucket", e);
            }
            ctx.await("bucket " + name + " to be gone", () -> !exists(ctx.aws(), name));
        }
    }
}
