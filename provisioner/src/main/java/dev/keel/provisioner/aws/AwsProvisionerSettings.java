package dev.keel.provisioner.aws;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * How the AWS driver reaches AWS and how patient it is.
 *
 * @param endpoints            per-service endpoint overrides ({@link AwsEndpoints#AWS} for real AWS)
 * @param baseCredentials      Keel's own credentials, used only to call {@code sts:AssumeRole}
 * @param maxAttempts          attempts per SDK call (throttling and 5xx are retried with jittered
 *                             exponential backoff by the SDK's standard retry strategy)
 * @param backoffBase          first backoff delay
 * @param backoffMax           largest backoff delay
 * @param waits                how patiently each kind of resource is awaited (running, available, gone…)
 * @param interceptors         extra SDK interceptors on every client (fault injection in tests)
 * @param brokerImages         the Keel broker image each broker version runs, pinned by digest
 *                             ({@code registry/repository@sha256:…}); a version without one cannot boot
 * @param defaultIngestUrl     control-plane ingest URL used when the target names none
 * @param walVolumeGiB         size of the per-broker gp3 WAL volume (EBS WAL)
 * @param fsxStorageGiB        SSD capacity of each FSx for ONTAP file system (FSWAL)
 * @param sweepFsxForEveryWal  whether the leftover sweep also lists FSx for non-FSWAL instances
 *                             (true on real AWS; false against an emulator without FSx)
 * @param clock                for credential expiry
 */
public record AwsProvisionerSettings(AwsEndpoints endpoints, AwsCredentialsProvider baseCredentials, int maxAttempts,
                                     Duration backoffBase, Duration backoffMax, Waits waits,
                                     List<ExecutionInterceptor> interceptors,
                                     Map<String, String> brokerImages, String defaultIngestUrl, int walVolumeGiB,
                                     int fsxStorageGiB, boolean sweepFsxForEveryWal, Clock clock) {

    public static AwsProvisionerSettings defaults() {
        return new AwsProvisionerSettings(AwsEndpoints.AWS, DefaultCredentialsProvider.builder().build(), 8,
                Duration.ofMillis(200), Duration.ofSeconds(20), Waits.aws(), List.of(), Map.of(), null, 10, 1024, true,
                Clock.systemUTC());
    }

    public AwsProvisionerSettings withEndpoints(AwsEndpoints value) {
        return new AwsProvisionerSettings(value, baseCredentials, maxAttempts, backoffBase, backoffMax, waits,
                interceptors, brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                clock);
    }

    public AwsProvisionerSettings withBaseCredentials(AwsCredentialsProvider value) {
        return new AwsProvisionerSettings(endpoints, value, maxAttempts, backoffBase, backoffMax, waits,
                interceptors, brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                clock);
    }

    public AwsProvisionerSettings withRetries(int attempts, Duration base, Duration max) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, attempts, base, max, waits, interceptors,
                brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal, clock);
    }

    public AwsProvisionerSettings withWaits(Waits value) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, maxAttempts, backoffBase, backoffMax, value,
                interceptors, brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                clock);
    }

    public AwsProvisionerSettings withInterceptors(List<ExecutionInterceptor> value) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, maxAttempts, backoffBase, backoffMax, waits,
                List.copyOf(value), brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                clock);
    }

    /** {@code brokerImages}: the broker image (pinned by digest) brokers of each broker version run, by version. */
    public AwsProvisionerSettings withDefaults(Map<String, String> brokerImages, String ingestUrl) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, maxAttempts, backoffBase, backoffMax, waits,
                interceptors, Map.copyOf(brokerImages), ingestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                clock);
    }

    public AwsProvisionerSettings withSweepFsxForEveryWal(boolean value) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, maxAttempts, backoffBase, backoffMax, waits,
                interceptors, brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, value, clock);
    }

    public AwsProvisionerSettings withClock(Clock value) {
        return new AwsProvisionerSettings(endpoints, baseCredentials, maxAttempts, backoffBase, backoffMax, waits,
                interceptors, brokerImages, defaultIngestUrl, walVolumeGiB, fsxStorageGiB, sweepFsxForEveryWal,
                value);
    }
}
