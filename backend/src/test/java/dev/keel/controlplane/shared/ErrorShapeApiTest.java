package dev.keel.controlplane.shared;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.ContractValidator;
import dev.keel.controlplane.support.RawHttp;
import dev.keel.controlplane.support.Tokens;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every error is a problem document of the contract's shape, also those answered before a request
 * reaches the API's code: malformed query strings and paths, unknown methods, oversized bodies,
 * unknown paths, on the API port and on the management port.
 */
class ErrorShapeApiTest extends ApiTest {

    private static final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aQueryParameterThatCannotBeDecodedIsNamedInA400() {
        JsonNode problem = problem(send("GET", "/api/v1/instances?name=%ZZ"), 400, "validation-failed");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("name");
        JsonNode invalidUtf8 = problem(send("GET", "/api/v1/instances?limit=5&name=%C3%28"), 400, "validation-failed");
        assertThat(invalidUtf8.get("errors").get(0).get("field").asString()).isEqualTo("name");
    }

    @Test
    void aQueryParameterWithoutANameIsA400EvenOnTheProbesAndTheManagementPort() {
        problem(send("GET", "/api/v1/instances?=x"), 400, "validation-failed");
        problem(RawHttp.send(port, "GET", "/readyz?=x", Map.of(), null), 400, "validation-failed");
        problem(RawHttp.send(managementPort, "GET", "/actuator/health?=x", Map.of(), null), 400, "validation-failed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"QUERY", "TRACE", "PUT"})
    void aMethodThePathDoesNotHaveIs405WithAllow(String method) {
        RawHttp.Response response = send(method, "/api/v1/instances");
        problem(response, 405, "method-not-allowed");
        assertThat(response.header("Allow")).as("Allow").contains("GET").contains("POST");
    }

    @Test
    void aLiteralPathIsNeverTakenForAnId() {
        RawHttp.Response patchPlan = send("PATCH", "/api/v1/instances/plan");
        problem(patchPlan, 405, "method-not-allowed");
        assertThat(patchPlan.header("Allow")).as("Allow").isEqualTo("POST");
        RawHttp.Response deleteTemplate = send("DELETE", "/api/v1/cloud-accounts/onboarding-template");
        problem(deleteTemplate, 405, "method-not-allowed");
        assertThat(deleteTemplate.header("Allow")).as("Allow").doesNotContain("DELETE");
        problem(send("GET", "/api/v1/instances/plan-b"), 404, "not-found");
    }

    @Test
    void aMethodThePathDoesNotHaveIs405EvenWithAKeyAlreadyUsed() {
        Map<String, String> headers = authorized();
        headers.put("Idempotency-Key", "reused-" + unique("key"));
        headers.put("Content-Type", "application/json");
        byte[] estimate = "{\"region\":\"us-east-1\",\"zones\":1,\"wal\":{\"type\":\"S3\"},\"aku\":3}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(RawHttp.send(port, "POST", "/api/v1/estimates", headers, estimate).status()).isEqualTo(200);
        problem(RawHttp.send(port, "PATCH", "/api/v1/estimates", headers, estimate), 405, "method-not-allowed");
    }

    @Test
    void aMultipartContentTypeIsAMediaTypeLikeAnyOther() {
        Map<String, String> multipart = authorized();
        multipart.put("Content-Type", "multipart/form-data");
        assertThat(RawHttp.send(port, "GET", "/api/v1/organizations/me", multipart, null).status()).isEqualTo(200);
        problem(RawHttp.send(port, "POST", "/api/v1/estimates", multipart, "{}".getBytes(StandardCharsets.UTF_8)), 415,
                "unsupported-media-type");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/instances/..%2f", "/api/v1/instances/%00", "/api/v1/instances;x=y",
            "/api/v1//instances", "/api/v1/instances/%2e%2e/cloud-accounts"})
    void pathTricksAre400ProblemDocuments(String path) {
        problem(send("GET", path), 400, "malformed-request");
    }

    @Test
    void theManagementPortAnswersProblemDocumentsToo() {
        problem(RawHttp.send(managementPort, "GET", "/actuator/%00", Map.of(), null), 400, "malformed-request");
    }

    @Test
    void errorIsAProtectedPathLikeAnyOther() {
        problem(RawHttp.send(port, "GET", "/error", Map.of(), null), 401, "unauthorized");
        problem(RawHttp.send(port, "GET", "/nothing-here", Map.of(), null), 401, "unauthorized");
        problem(send("GET", "/nothing-here"), 404, "not-found");
    }

    @Test
    void aBodyOverTheLimitIs413BeforeItIsRead() {
        byte[] big = ("{\"name\":\"" + "a".repeat(2 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        Map<String, String> headers = authorized();
        headers.put("Content-Type", "application/json");
        problem(RawHttp.send(port, "POST", "/api/v1/estimates", headers, big), 413, "payload-too-large");

        headers.put("Idempotency-Key", "big-" + System.nanoTime());
        problem(RawHttp.send(port, "POST", "/api/v1/estimates", headers, big), 413, "payload-too-large");
    }

    @Test
    void aStreamedBodyOverTheLimitIs413Too() {
        Map<String, String> headers = authorized();
        headers.put("Content-Type", "application/json");
        headers.put("Transfer-Encoding", "chunked");
        byte[] chunk = ("{\"name\":\"" + "a".repeat(2 * 1024 * 1024) + "\"}").getBytes(StandardCharsets.UTF_8);
        byte[] chunked = concat((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII), chunk,
                "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        problem(RawHttp.send(port, "POST", "/api/v1/estimates", headers, chunked), 413, "payload-too-large");
    }

    @Test
    void wrongMediaTypesAre415And406() {
        Map<String, String> form = authorized();
        form.put("Content-Type", "application/x-www-form-urlencoded");
        problem(RawHttp.send(port, "POST", "/api/v1/estimates", form, "a=b".getBytes(StandardCharsets.UTF_8)), 415,
                "unsupported-media-type");
        Map<String, String> xml = authorized();
        xml.put("Accept", "application/xml");
        problem(RawHttp.send(port, "GET", "/api/v1/instances", xml, null), 406, "not-acceptable");
    }

    private RawHttp.Response send(String method, String target) {
        return RawHttp.send(port, method, target, authorized(), null);
    }

    private static Map<String, String> authorized() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer " + Tokens.of(ADMIN));
        return headers;
    }

    /** Asserts the answer is a problem document of this status and type that the contract's schema accepts. */
    private static JsonNode problem(RawHttp.Response response, int status, String type) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.header("Content-Type")).as(response.toString()).startsWith("application/problem+json");
        assertThat(ContractValidator.problemViolations(response.body())).as(response.body()).isEmpty();
        JsonNode problem = json.readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo(Problems.TYPE_PREFIX + type);
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        return problem;
    }

    private static byte[] concat(byte[]... parts) {
        int length = Arrays.stream(parts).mapToInt(p -> p.length).sum();
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
