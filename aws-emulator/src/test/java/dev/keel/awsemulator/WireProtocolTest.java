package dev.keel.awsemulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

/** The raw AWS JSON 1.1 wire shapes, the admin API and the command line. */
class WireProtocolTest {

    private static AwsApiEmulator emulator;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        emulator = AwsApiEmulator.start(AwsApiEmulator.Options.defaults().withPort(0));
    }

    @AfterAll
    static void stop() {
        emulator.close();
    }

    private static HttpResponse<String> post(String target, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(emulator.endpoint().resolve("/"))
                .header("Content-Type", "application/x-amz-json-1.1")
                .header("Authorization", "AWS4-HMAC-SHA256 Credential=123456789012/20261122/eu-west-1/fsx/aws4_request,"
                        + " SignedHeaders=host;x-amz-date, Signature=not-checked")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (target != null) {
            request.header("X-Amz-Target", target);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void errorsHaveTheAwsJsonShape() throws Exception {
        HttpResponse<String> response = post("AWSSimbaAPIService_v20180301.DescribeFileSystems",
                "{\"FileSystemIds\":[\"fs-0123456789abcdef0\"]}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/x-amz-json-1.1");
        assertThat(response.headers().firstValue("x-amzn-ErrorType")).hasValue("FileSystemNotFound");
        assertThat(response.headers().firstValue("x-amzn-RequestId")).isPresent();
        JsonNode body = Json.MAPPER.readTree(response.body());
        assertThat(body.get("__type").stringValue()).isEqualTo("FileSystemNotFound");
        assertThat(body.get("message").stringValue()).contains("fs-0123456789abcdef0");
    }

    @Test
    void regionAndAccountComeFromTheSignatureScope() throws Exception {
        HttpResponse<String> response = post("AWSSimbaAPIService_v20180301.CreateFileSystem", """
                {"FileSystemType":"ONTAP","StorageCapacity":1024,"SubnetIds":["subnet-0ccccccccccccccc3"],
                 "OntapConfiguration":{"DeploymentType":"SINGLE_AZ_1","ThroughputCapacity":128}}""");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode fs = Json.MAPPER.readTree(response.body()).get("FileSystem");
        assertThat(fs.get("ResourceARN").stringValue()).startsWith("arn:aws:fsx:eu-west-1:123456789012:file-system/fs-");
        assertThat(fs.get("CreationTime").isNumber()).as("timestamps are epoch seconds").isTrue();
    }

    @Test
    void malformedRequestsAndUnknownOperationsAreClientErrors() throws Exception {
        assertThat(post("AWSSimbaAPIService_v20180301.DescribeFileSystems", "{not json").body())
                .contains("SerializationException");
        assertThat(post("AWSSimbaAPIService_v20180301.DescribeFileSystems", "{\"MaxResults\":\"ten\"}").body())
                .contains("SerializationException");
        HttpResponse<String> unknown = post("AWSSimbaAPIService_v20180301.CreateBackup", "{}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("UnknownOperationException").contains("not emulated");
        assertThat(post("DynamoDB_20120810.ListTables", "{}").body()).contains("UnknownOperationException");
        assertThat(post(null, "{}").statusCode()).isEqualTo(400);
    }

    @Test
    void healthAndAdminErrors() throws Exception {
        HttpResponse<String> health = HTTP.send(HttpRequest.newBuilder(emulator.endpoint().resolve("/_emulator/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(Json.MAPPER.readTree(health.body()).get("status").stringValue()).isEqualTo("UP");
        assertThat(health.body()).contains("not AWS");

        HttpResponse<String> bad = HTTP.send(HttpRequest.newBuilder(emulator.endpoint().resolve("/_emulator/marketplace/customers"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"productCode\":\"p\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("registrationToken is required");
    }

    @Test
    void commandLineOptions() {
        AwsApiEmulator.Options options = AwsApiEmulator.parseArgs(new String[] {
                "--port", "24577", "--host=0.0.0.0", "--fsx-create-seconds", "0.5", "--fsx-update-seconds=2"});
        assertThat(options.port()).isEqualTo(24577);
        assertThat(options.host()).isEqualTo("0.0.0.0");
        assertThat(options.fsxCreateDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.fsxUpdateDelay()).isEqualTo(Duration.ofSeconds(2));
        assertThat(AwsApiEmulator.parseArgs(new String[0])).isEqualTo(AwsApiEmulator.Options.defaults());
        assertThatThrownBy(() -> AwsApiEmulator.parseArgs(new String[] {"--bogus", "1"}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void realisticLifecyclesScaledDown() {
        AwsApiEmulator.Options options = AwsApiEmulator.parseArgs(new String[] {
                "--fsx-lifecycle", "realistic", "--time-scale", "0.01"});
        assertThat(options.fsx()).isEqualTo(FsxLifecycles.realistic().scaled(0.01));
        assertThat(options.fsxCreateDelay()).isEqualTo(Duration.ofSeconds(18));
        assertThat(options.fsx().svmCreate()).isEqualTo(Duration.ofSeconds(3));
        assertThatThrownBy(() -> AwsApiEmulator.parseArgs(new String[] {"--fsx-lifecycle", "slow"}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
