package dev.keel.provisioner.aws;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.keel.provisioner.ProvisioningTarget;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;

/**
 * Builds the SDK clients for a customer account: STS with Keel's own credentials, everything else
 * with credentials from {@code sts:AssumeRole} (role ARN + external id, session {@code keel-<id prefix>}).
 * Clients share one HTTP connection pool, carry the configured retry strategy and interceptors and the
 * {@link StepFence}, and
 * are cached per (role, external id, region).
 */
public final class AwsClients implements AutoCloseable {

    /** The clients for one customer account and region. */
    public record Customer(Ec2Client ec2, IamClient iam, S3Client s3, FSxClient fsx, SsmClient ssm) {
    }

    private record Key(String roleArn, String externalId, String region) {
    }

    private final AwsProvisionerSettings settings;
    private final SdkHttpClient http;
    private final Map<String, StsClient> sts = new ConcurrentHashMap<>();
    private final Map<Key, Customer> customers = new ConcurrentHashMap<>();
    private final AssumedRoleCredentials credentials;

    public AwsClients(AwsProvisionerSettings settings) {
        this.settings = settings;
        this.http = ApacheHttpClient.builder().maxConnections(64).connectionTimeout(Duration.ofSeconds(5))
                .socketTimeout(Duration.ofSeconds(60)).build();
        this.credentials = new AssumedRoleCredentials(settings.clock());
    }

    public Customer forTarget(ProvisioningTarget target) {
        return forAccount(target.account(), target.region(), "keel-" + target.instanceId().toString().substring(0, 8));
    }

    /** The clients for {@code account} in {@code region}; {@code session} names the assumed-role session in CloudTrail. */
    Customer forAccount(ProvisioningTarget.Account account, String region, String session) {
        if (account == null || account.roleArn() == null || account.roleArn().isBlank()) {
            throw new dev.keel.provisioner.ProvisioningException("NO_ROLE",
                    "The cloud account has no role ARN to assume.", false);
        }
        return customers.computeIfAbsent(new Key(account.roleArn(), account.externalId(), region), key -> {
            AwsCredentialsProvider provider = credentials.provider(key.roleArn(), key.externalId(),
                    () -> assume(key.region(), key.roleArn(), key.externalId(), session));
            Region awsRegion = Region.of(key.region());
            return new Customer(
                    configure(Ec2Client.builder(), settings.endpoints().ec2Endpoint(), awsRegion, provider).build(),
                    configure(IamClient.builder(), settings.endpoints().iamEndpoint(), Region.AWS_GLOBAL, provider)
                            .build(),
                    configure(S3Client.builder(), settings.endpoints().s3Endpoint(), awsRegion, provider)
                            .forcePathStyle(settings.endpoints().s3Endpoint().isPresent()).build(),
                    configure(FSxClient.builder(), settings.endpoints().fsxEndpoint(), awsRegion, provider).build(),
                    configure(SsmClient.builder(), settings.endpoints().ssmEndpoint(), awsRegion, provider).build());
        });
    }

    /**
     * An IAM client with credentials assumed just now, past the cache: verification must see the
     * role's trust policy as it is. The caller closes it.
     */
    IamClient freshIam(ProvisioningTarget.Account account, String region) {
        AssumedRoleCredentials.Assumed assumed = assume(region, account.roleArn(), account.externalId(), "keel-verify");
        return configure(IamClient.builder(), settings.endpoints().iamEndpoint(), Region.AWS_GLOBAL,
                StaticCredentialsProvider.create(assumed.credentials())).build();
    }

    private AssumedRoleCredentials.Assumed assume(String region, String roleArn, String externalId,
                                                  String sessionName) {
        StsClient client = sts.computeIfAbsent(region, r -> configure(StsClient.builder(),
                settings.endpoints().stsEndpoint(), Region.of(r), settings.baseCredentials()).build());
        AssumeRoleResponse response = AwsCalls.call("sts:AssumeRole", () -> client.assumeRole(b -> b
                .roleArn(roleArn).externalId(externalId).roleSessionName(sessionName)
                .durationSeconds(3600)));
        var c = response.credentials();
        return new AssumedRoleCredentials.Assumed(AwsSessionCredentials.builder().accessKeyId(c.accessKeyId())
                .secretAccessKey(c.secretAccessKey()).sessionToken(c.sessionToken()).expirationTime(c.expiration())
                .build(), c.expiration());
    }

    private <B extends AwsClientBuilder<B, ?>> B configure(B builder, Optional<URI> endpoint, Region region,
                                                           AwsCredentialsProvider provider) {
        endpoint.ifPresent(builder::endpointOverride);
        builder.region(region).credentialsProvider(provider).overrideConfiguration(overrides());
        if (builder instanceof software.amazon.awssdk.core.client.builder.SdkSyncClientBuilder<?, ?> sync) {
            sync.httpClient(http);
        }
        return builder;
    }

    private ClientOverrideConfiguration overrides() {
        BackoffStrategy backoff = BackoffStrategy.exponentialDelay(settings.backoffBase(), settings.backoffMax());
        ClientOverrideConfiguration.Builder b = ClientOverrideConfiguration.builder()
                .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(settings.maxAttempts())
                        .backoffStrategy(backoff)
                        .throttlingBackoffStrategy(backoff)
                        // The token bucket would stop retrying during a burst of throttling: a step
                        // is better off waiting longer than failing and being retried as a whole.
                        .circuitBreakerEnabled(false)
                        .build())
                .apiCallAttemptTimeout(Duration.ofSeconds(60));
        settings.interceptors().forEach(b::addExecutionInterceptor);
        // Last: whatever the others do before a call, the fence is asked just before it goes out.
        b.addExecutionInterceptor(new StepFence());
        return b.build();
    }

    @Override
    public void close() {
        customers.values().forEach(c -> {
            c.ec2().close();
            c.iam().close();
            c.s3().close();
            c.fsx().close();
            c.ssm().close();
        });
        sts.values().forEach(StsClient::close);
        http.close();
    }
}
