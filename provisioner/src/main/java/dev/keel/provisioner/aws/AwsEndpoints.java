package dev.keel.provisioner.aws;

import java.net.URI;
import java.util.Optional;

/**
 * Optional endpoint overrides, one per service the provisioner calls. {@code null} means the SDK's
 * own regional endpoint (real AWS). Locally every service but FSx points at LocalStack, and FSx at
 * the project's own emulator.
 */
public record AwsEndpoints(URI sts, URI iam, URI ec2, URI s3, URI fsx, URI ssm) {

    /** Real AWS: no overrides. */
    public static final AwsEndpoints AWS = new AwsEndpoints(null, null, null, null, null, null);

    /** Every service at one endpoint, e.g. LocalStack's {@code http://localhost:4566}. */
    public static AwsEndpoints all(URI endpoint) {
        return new AwsEndpoints(endpoint, endpoint, endpoint, endpoint, endpoint, endpoint);
    }

    public AwsEndpoints withFsx(URI endpoint) {
        return new AwsEndpoints(sts, iam, ec2, s3, endpoint, ssm);
    }

    public Optional<URI> stsEndpoint() {
        return Optional.ofNullable(sts);
    }

    public Optional<URI> iamEndpoint() {
        return Optional.ofNullable(iam);
    }

    public Optional<URI> ec2Endpoint() {
        return Optional.ofNullable(ec2);
    }

    public Optional<URI> s3Endpoint() {
        return Optional.ofNullable(s3);
    }

    public Optional<URI> fsxEndpoint() {
        return Optional.ofNullable(fsx);
    }

    public Optional<URI> ssmEndpoint() {
        return Optional.ofNullable(ssm);
    }
}
