package dev.keel.controlplane.estimates;

import static dev.keel.controlplane.support.Fixtures.instanceBody;
import static dev.keel.controlplane.support.Fixtures.registerAccount;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import tools.jackson.databind.JsonNode;

/**
 * The assumptions an estimate takes (in the body of {@code POST /estimates}, as query parameters of an instance's
 * estimate) and lists in its answer, each with where it came from; out-of-range ones refused naming the field.
 */
class EstimateAssumptionsApiTest extends ApiTest {

    private static final String ESTIMATE = """
            {"region":"us-east-1","zones":3,"wal":{"type":"S3"},"aku":6%s}""";

    @Test
    void withoutAssumptionsTheAnswerListsTheDefaultsAndTheModelsFixedOnes() {
        Map<String, JsonNode> listed = assumptions(ok(api(VIEWER).post("/estimates", ESTIMATE.formatted(""))));
        assertThat(listed.get("purchaseOption").get("value").asString()).isEqualTo("ON_DEMAND");
        assertThat(listed.get("followerFetching").get("value").asString()).isEqualTo("false");
        assertThat(listed.get("compressionRatio").get("value").asString()).isEqualTo("1");
        assertThat(listed.get("retentionHours").get("value").asString()).isEqualTo("72");
        for (String name : new String[] {"purchaseOption", "followerFetching", "compressionRatio", "writeMiBps",
                "readMiBps", "retentionHours"}) {
            assertThat(listed.get(name).get("source").asString()).as(name).isEqualTo("DEFAULT");
        }
        for (String name : new String[] {"replicationFactor", "computeHeadroom", "crossZoneProducerTraffic",
                "keelCrossZoneTraffic", "hoursPerMonth"}) {
            assertThat(listed.get(name).get("source").asString()).as(name).isEqualTo("MODEL");
        }
        assertThat(listed.values()).allSatisfy(a -> assertThat(a.get("statement").asString()).isNotBlank());
    }

    @Test
    void givenAssumptionsAreListedAsTheCallersAndMoveTheComparison() {
        ApiClient api = api(VIEWER);
        JsonNode byDefault = ok(api.post("/estimates", ESTIMATE.formatted("")));
        JsonNode changed = ok(api.post("/estimates", ESTIMATE.formatted("""
                ,"assumptions":{"purchaseOption":"RESERVED_1_YEAR_NO_UPFRONT","followerFetching":true,"compressionRatio":4}""")));

        Map<String, JsonNode> listed = assumptions(changed);
        assertThat(listed.get("purchaseOption").get("value").asString()).isEqualTo("RESERVED_1_YEAR_NO_UPFRONT");
        assertThat(listed.get("followerFetching").get("value").asString()).isEqualTo("true");
        assertThat(listed.get("compressionRatio").get("value").asString()).isEqualTo("4");
        assertThat(listed.values()).filteredOn(a -> a.get("source").asString().equals("REQUEST"))
                .extracting(a -> a.get("name").asString())
                .containsExactlyInAnyOrder("purchaseOption", "followerFetching", "compressionRatio");
        assertThat(kafkaItems(changed)).doesNotContain("cross-az-consumers");
        assertThat(kafkaItems(byDefault)).contains("cross-az-consumers");
        assertThat(kafkaLine(changed, "compute").get("monthlyUsd").asDouble())
                .isLessThan(kafkaLine(byDefault, "compute").get("monthlyUsd").asDouble());
        assertThat(changed.get("selfManagedKafka").get("totalMonthlyUsd").asDouble())
                .isLessThan(byDefault.get("selfManagedKafka").get("totalMonthlyUsd").asDouble());
    }

    @Test
    void assumptionsOutOfBoundsAreRefusedNamingTheField() {
        ApiClient api = api(VIEWER);
        // Each refused assumption, as the body gives it, and the field the refusal names.
        Map<String, String> refused = Map.of(
                "\"compressionRatio\":0.5", "compressionRatio",
                "\"compressionRatio\":20.5", "compressionRatio",
                "\"compressionRatio\":\"4\"", "compressionRatio",
                "\"purchaseOption\":\"SPOT\"", "purchaseOption",
                "\"followerFetching\":\"yes\"", "followerFetching",
                "\"replicationFactor\":2", "replicationFactor");
        refused.forEach((given, field) -> assertRefused(
                api.post("/estimates", ESTIMATE.formatted(",\"assumptions\":{" + given + "}")), "assumptions." + field));
        assertThat(ok(api.post("/estimates", ESTIMATE.formatted(",\"assumptions\":{\"compressionRatio\":20}")))
                .get("assumptions")).isNotEmpty();
    }

    @Test
    void anInstancesEstimateTakesTheAssumptionsAsQueryParameters() {
        ApiClient api = api(EDITOR);
        String account = registerAccount(api).get("id").asString();
        String id = createRunningInstance(api, instanceBody(account, "S3", 3, 6)).get("id").asString();
        String path = "/instances/" + id + "/cost-estimate";

        Map<String, JsonNode> listed = assumptions(ok(api.get(path
                + "?purchaseOption=RESERVED_1_YEAR_NO_UPFRONT&followerFetching=true&compressionRatio=2.5")));
        assertThat(listed.get("purchaseOption").get("source").asString()).isEqualTo("REQUEST");
        assertThat(listed.get("followerFetching").get("value").asString()).isEqualTo("true");
        assertThat(listed.get("compressionRatio").get("value").asString()).isEqualTo("2.5");
        assertThat(assumptions(ok(api.get(path))).get("compressionRatio").get("source").asString()).isEqualTo("DEFAULT");

        assertRefused(api.get(path + "?compressionRatio=NaN"), "compressionRatio");
        assertRefused(api.get(path + "?compressionRatio=0"), "compressionRatio");
        assertRefused(api.get(path + "?followerFetching=maybe"), "followerFetching");
        assertRefused(api.get(path + "?followerFetching=yes"), "followerFetching");
        assertRefused(api.get(path + "?purchaseOption=SPOT"), "purchaseOption");
    }

    private static void assertRefused(ApiClient.Response response, String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.json().get("type").asString()).endsWith("validation-failed");
        assertThat(response.json().get("errors")).as(response.toString())
                .anySatisfy(e -> assertThat(e.get("field").asString()).isEqualTo(field));
    }

    private static JsonNode ok(ApiClient.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private static Map<String, JsonNode> assumptions(JsonNode estimate) {
        return estimate.get("assumptions").valueStream()
                .collect(Collectors.toMap(a -> a.get("name").asString(), Function.identity()));
    }

    private static List<String> kafkaItems(JsonNode estimate) {
        return estimate.get("selfManagedKafka").get("lines").valueStream().map(l -> l.get("item").asString()).toList();
    }

    private static JsonNode kafkaLine(JsonNode estimate, String item) {
        return estimate.get("selfManagedKafka").get("lines").valueStream()
                .filter(l -> item.equals(l.get("item").asString())).findFirst().orElseThrow();
    }
}
