package dev.keel.controlplane.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Request bodies and set-up shared by the API tests. */
public final class Fixtures {

    public static final String EDITOR = "acme-editor";

    private Fixtures() {
    }

    /** A unique DNS-safe name, so tests sharing a database never collide. */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public static JsonNode registerAccount(ApiClient api) {
        ApiClient.Response response = api.post("/cloud-accounts", Map.of(
                "name", unique("acct"),
                "awsAccountId", "000000000000",
                "roleArn", "arn:aws:iam::000000000000:role/" + unique("KeelControlPlane"),
                "regions", List.of("us-east-1")));
        assertThat(response.status()).as(response.toString()).isEqualTo(201);
        return response.json();
    }

    /** A valid creation body; callers replace what their test is about. */
    public static Map<String, Object> instanceBody(String accountId, String wal, int zones, int aku) {
        List<Map<String, String>> subnets = new ArrayList<>();
        for (int i = 0; i < zones; i++) {
            subnets.add(Map.of("availabilityZone", "us-east-1" + (char) ('a' + i),
                    "subnetId", "subnet-0000000000000000" + i));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", unique("kafka"));
        body.put("cloudAccountId", accountId);
        body.put("region", "us-east-1");
        body.put("network", Map.of("vpcId", "vpc-0a1b2c3d4e5f67890", "subnets", subnets));
        body.put("wal", Map.of("type", wal));
        body.put("aku", aku);
        if (wal.equals("FSWAL")) {
            body.put("fsx", Map.of("throughputMBps", 768, "count", 1));
        }
        return body;
    }
}
