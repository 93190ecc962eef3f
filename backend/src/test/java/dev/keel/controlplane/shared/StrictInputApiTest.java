package dev.keel.controlplane.shared;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Numbers and strings mean what they say: nothing is coerced, figures are bounded, every unknown property is named. */
class StrictInputApiTest extends ApiTest {

    private static final String ESTIMATE = """
            {"region":"us-east-1","zones":1,"wal":{"type":"S3"},"aku":%s%s}""";

    @Test
    void anIntegerFieldRefusesAFractionAndAString() {
        ApiClient api = api(EDITOR);
        assertRefused(api.post("/estimates", ESTIMATE.formatted("3.9", "")), "aku");
        assertRefused(api.post("/estimates", ESTIMATE.formatted("\"4\"", "")), "aku");
        String accountId = registerAccount(api).get("id").asString();
        Map<String, Object> body = instanceBody(accountId, "S3", 1, 3);
        body.put("aku", 3.9);
        assertRefused(api.post("/instances", body), "aku");
        body.put("aku", "4");
        assertRefused(api.post("/instances", body), "aku");
        assertRefused(api.post("/estimates", """
                {"region":"us-east-1","zones":1,"wal":{"type":0},"aku":3}"""), "wal.type");
    }

    @Test
    void aWholeNumberIsAnIntegerHoweverItIsWritten() {
        ApiClient api = api(VIEWER);
        for (String aku : List.of("3.0", "3e0", "0.3e1")) {
            ApiClient.Response estimate = api.post("/estimates", ESTIMATE.formatted(aku, ""));
            assertThat(estimate.status()).as(aku + ": " + estimate).isEqualTo(200);
        }
        assertRefused(api.post("/estimates", ESTIMATE.formatted("3.0000001", "")), "aku");
    }

    @Test
    void aNullIsRefusedNotTakenForAMissingValue() {
        ApiClient api = api(EDITOR);
        assertRefused(api.post("/estimates", "null"), "body");
        String id = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3))
                .get("id").asString();
        assertRefused(api.post("/instances/" + id + "/plan", "null"), "body");
        assertRefused(api.post("/instances/" + id + "/plan", "{\"aku\":9,\"fsx\":null}"), "fsx");
        assertRefused(api.post("/estimates", ESTIMATE.formatted("3", ",\"workload\":null")), "workload");
    }

    @Test
    void anEmptyChangeIsRefusedNotPlannedAsARepair() {
        ApiClient api = api(EDITOR);
        String plan = "/instances/" + createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3))
                .get("id").asString() + "/plan";
        assertRefused(api.post(plan, "{}"), "body");
        assertThat(api.post(plan, null).json().get("kind").asString()).isEqualTo("REPAIR");
    }

    @Test
    void aPatchRefusesAFractionalAku() {
        ApiClient api = api(EDITOR);
        JsonNode instance = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3));
        ApiClient.Response patched = api.header("If-Match", "\"1\"").patch("/instances/" + instance.get("id").asString(),
                "{\"aku\":3.7}");
        assertRefused(patched, "aku");
        assertThat(api.get("/instances/" + instance.get("id").asString()).json().get("specVersion").asInt()).isEqualTo(1);
    }

    @Test
    void workloadFiguresAreFiniteAndBounded() {
        ApiClient api = api(VIEWER);
        for (String write : List.of("1e308", "1e309", "100000.5")) {
            assertRefused(api.post("/estimates", ESTIMATE.formatted("3",
                    ",\"workload\":{\"writeMiBps\":" + write + ",\"readMiBps\":1,\"retentionHours\":72}")), "workload.writeMiBps");
        }
        assertRefused(api.post("/estimates", ESTIMATE.formatted("3",
                ",\"workload\":{\"writeMiBps\":Infinity,\"readMiBps\":1,\"retentionHours\":72}")), "body");
        ApiClient.Response largest = api.post("/estimates", ESTIMATE.formatted("3",
                ",\"workload\":{\"writeMiBps\":100000,\"readMiBps\":100000,\"retentionHours\":8760}"));
        assertThat(largest.status()).as(largest.toString()).isEqualTo(200);
    }

    @Test
    void queryNumbersAreFiniteAndWrittenAsJsonWritesThem() {
        ApiClient api = api(EDITOR);
        String id = createRunningInstance(api, instanceBody(registerAccount(api).get("id").asString(), "S3", 1, 3))
                .get("id").asString();
        for (String write : List.of("Infinity", "NaN", "1e309", "0x10", "1000d", "200000")) {
            assertRefused(api.get("/instances/" + id + "/cost-estimate?writeMiBps=" + write), "writeMiBps");
        }
        assertThat(api.get("/instances/" + id + "/cost-estimate?writeMiBps=1.5e2").status()).isEqualTo(200);
        for (String limit : List.of("3.9", "04", "0x10", "%2B4", "1e10")) {
            assertRefused(api.get("/instances?limit=" + limit), "limit");
        }
        assertThat(api.get("/instances?limit=5.0").status()).isEqualTo(200);
    }

    @Test
    void queryInstantsAreRfc3339DateTimes() {
        ApiClient api = api(VIEWER);
        for (String to : List.of("0", "1795548016000", "Tue,%2024%20Nov%202026%2010:00:00%20GMT", "2026-11-24T10:00Z",
                "2026-02-30T10:00:00Z")) {
            assertRefused(api.get("/billing/usage?to=" + to), "to");
        }
        assertThat(api.get("/billing/usage?to=2026-11-24T10:00:00.5%2B01:00").status()).isEqualTo(200);
    }

    @Test
    void roleArnsKeepTheirLengthAndAKnownPartition() {
        ApiClient api = api(EDITOR);
        Map<String, Object> body = new LinkedHashMap<>(Map.of("name", unique("arn"), "awsAccountId", "000000000000",
                "regions", List.of("us-east-1")));
        body.put("roleArn", "arn:aws:iam::000000000000:role/" + "a/".repeat(1500) + "x");
        assertRefused(api.post("/cloud-accounts", body), "roleArn");
        body.put("roleArn", "arn:aws-evil:iam::000000000000:role/x");
        assertRefused(api.post("/cloud-accounts", body), "roleArn");
        body.put("roleArn", "arn:aws-us-gov:iam::000000000000:role/keel/" + unique("Keel"));
        assertThat(api.post("/cloud-accounts", body).status()).isEqualTo(201);
    }

    @Test
    void listFiltersKeepTheirDocumentedLengths() {
        ApiClient api = api(VIEWER);
        assertRefused(api.get("/instances?name="), "name");
        assertRefused(api.get("/instances?name=" + "a".repeat(65)), "name");
        String longest = URLEncoder.encode("\uD835\uDD7F".repeat(64), StandardCharsets.UTF_8);
        assertThat(api.get("/instances?name=" + longest).status()).as("64 characters, 128 UTF-16 units").isEqualTo(200);
        assertRefused(api.get("/audit-events?resourceType=Instance"), "resourceType");
        assertRefused(api.get("/audit-events?resourceId=not-a-uuid"), "resourceId");
    }

    @Test
    void aQueryParameterWithoutAValueIsRefusedNotIgnored() {
        ApiClient api = api(VIEWER);
        assertRefused(api.get("/billing/usage?to="), "to");
        assertRefused(api.get("/instances?state"), "state");
        assertRefused(api.get("/audit-events?limit=5&resourceId="), "resourceId");
        assertRefused(api.get("/cloud-accounts?cursor="), "cursor");
    }

    @Test
    void everyUnknownPropertyIsReportedWithTheFirstWrongType() {
        ApiClient.Response response = api(VIEWER).post("/estimates", """
                {"bogus":1,"region":"us-east-1","zones":"1","wal":{"type":"S3","extra":[1]},"aku":3,
                 "workload":{"writeMiBps":1,"readMiBps":1,"retentionHours":1,"nope":{"a":1}}}""");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("errors")).extracting(e -> e.get("field").asString())
                .containsExactlyInAnyOrder("bogus", "wal.extra", "workload.nope", "zones");
    }

    private static void assertRefused(ApiClient.Response response, String field) {
        assertThat(response.status()).as(response.toString()).isEqualTo(400);
        assertThat(response.json().get("errors")).as(response.toString())
                .anySatisfy(error -> assertThat(error.get("field").asString()).isEqualTo(field));
    }
}
