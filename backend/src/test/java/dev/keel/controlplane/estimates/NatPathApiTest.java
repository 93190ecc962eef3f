package dev.keel.controlplane.estimates;

import static dev.keel.controlplane.support.Fixtures.instanceBody;
import static dev.keel.controlplane.support.Fixtures.registerAccount;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

/**
 * The S3 gateway endpoint option of a spec: kept with the instance (CREATE unless it says otherwise), and what the
 * estimate makes of it. Without an endpoint Keel ensures, the brokers' S3 traffic is priced through a NAT gateway.
 */
class NatPathApiTest extends ApiTest {

    private static final String ESTIMATE = """
            {"region":"us-east-1","zones":3,"wal":{"type":"S3"},"aku":6%s}""";

    @Test
    void anEstimateWithoutAnEndpointPricesTheS3TrafficThroughANatGateway() {
        ApiClient api = api(VIEWER);
        JsonNode byDefault = ok(api.post("/estimates", ESTIMATE.formatted("")));
        JsonNode created = ok(api.post("/estimates", ESTIMATE.formatted(",\"s3GatewayEndpoint\":\"CREATE\"")));
        JsonNode throughNat = ok(api.post("/estimates", ESTIMATE.formatted(",\"s3GatewayEndpoint\":\"NONE\"")));

        assertThat(items(byDefault)).doesNotContain("nat-gateway").isEqualTo(items(created));
        assertThat(items(ok(api.post("/estimates", ESTIMATE.formatted(",\"s3GatewayEndpoint\":\"REQUIRE_EXISTING\"")))))
                .doesNotContain("nat-gateway");
        JsonNode nat = line(throughNat, "nat-gateway");
        // 6 AKU write 120 MiB/s: 307,968.75 GiB produced in a 730-hour month, uploaded once and read back once.
        assertThat(nat.get("quantity").asDouble()).isEqualTo(615_937.5);
        assertThat(nat.get("unit").asString()).isEqualTo("GiB processed");
        assertThat(nat.get("monthlyUsd").asDouble()).isEqualTo(27_717.19);
        assertThat(throughNat.get("diskless").get("totalMonthlyUsd").asDouble()).isEqualTo(
                Math.round((created.get("diskless").get("totalMonthlyUsd").asDouble() + 27_717.19) * 100) / 100.0);
    }

    @Test
    void anUnknownOptionIsRefusedNamingTheField() {
        ApiClient.Response refused = api(VIEWER).post("/estimates", ESTIMATE.formatted(",\"s3GatewayEndpoint\":\"MAYBE\""));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("errors")).anySatisfy(e -> assertThat(e.get("field").asString())
                .isEqualTo("s3GatewayEndpoint"));
    }

    @Test
    void theInstanceKeepsItsOptionAndItsEstimateFollowsIt() {
        ApiClient api = api(EDITOR);
        String account = registerAccount(api).get("id").asString();
        JsonNode byDefault = createRunningInstance(api, instanceBody(account, "S3", 3, 6));
        assertThat(byDefault.get("spec").get("network").get("s3GatewayEndpoint").asString()).isEqualTo("CREATE");
        assertThat(items(ok(api.get("/instances/" + byDefault.get("id").asString() + "/cost-estimate"))))
                .doesNotContain("nat-gateway");

        Map<String, Object> body = instanceBody(account, "S3", 3, 6);
        Map<String, Object> network = new HashMap<>(castMap(body.get("network")));
        network.put("s3GatewayEndpoint", "NONE");
        body.put("network", network);
        JsonNode alone = createRunningInstance(api, body);
        assertThat(ok(api.get("/instances/" + alone.get("id").asString())).get("spec").get("network")
                .get("s3GatewayEndpoint").asString()).isEqualTo("NONE");
        assertThat(line(ok(api.get("/instances/" + alone.get("id").asString() + "/cost-estimate")), "nat-gateway")
                .get("monthlyUsd").asDouble()).isEqualTo(27_717.19);
    }

    private static JsonNode ok(ApiClient.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private static List<String> items(JsonNode estimate) {
        return estimate.get("diskless").get("lines").valueStream().map(l -> l.get("item").asString()).toList();
    }

    private static JsonNode line(JsonNode estimate, String item) {
        return estimate.get("diskless").get("lines").valueStream().filter(l -> item.equals(l.get("item").asString()))
                .findFirst().orElseThrow(() -> new AssertionError("no " + item + " line in " + estimate));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object value) {
        return (Map<String, Object>) value;
    }
}
