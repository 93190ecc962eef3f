package dev.keel.controlplane.provisioning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.BackendProcess;
import dev.keel.controlplane.support.CustomerAccount;
import dev.keel.controlplane.support.Fixtures;
import dev.keel.controlplane.support.OnboardedAccount;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The customer's network is read through the account's role before anything is created: a VPC or
 * subnet that does not exist, a subnet of another VPC or in another zone than declared is refused
 * on create and on plan, naming the field, and nothing is created. An update cannot change the
 * network, so it reads the instance's own network again: a subnet gone since the create refuses the
 * update and its plan (the scale would launch brokers there), and so does a subnet whose routing lost the paths out
 * a create requires, with the create's field and message; nothing is recorded. Against LocalStack.
 */
class NetworkCheckIT {

    private static BackendProcess backend;
    private static ApiClient api;
    private static OnboardedAccount account;

    @BeforeAll
    static void onboardedAccount() {
        backend = BackendProcess.start("network-" + Fixtures.unique("worker"), OnboardedAccount.awsEnvironment())
                .withPlayedAgents();
        api = backend.api(Fixtures.EDITOR);
        account = new OnboardedAccount(api);
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void aSubnetThatDoesNotExistIsRefusedBeforeAnythingIsCreated() {
        Map<String, Object> body = withSubnet(1, "subnet-0123456789abcdef0", zone(1));
        assertRefused(body, "network.subnets[1].subnetId", "does not exist");
    }

    @Test
    void aSubnetInAnotherZoneThanDeclaredIsRefused() {
        Map<String, Object> body = account.instanceBody("S3", 1, 3, null);
        body.put("network", Map.of("vpcId", account.customer.vpcId, "subnets",
                List.of(Map.of("availabilityZone", zone(0), "subnetId", account.customer.subnets.get(1)[1]))));
        assertRefused(body, "network.subnets[0].subnetId", "is in zone " + zone(1));
    }

    @Test
    void aSubnetOfAnotherVpcIsRefused() {
        Map<String, Object> body = withSubnet(2, account.customer.subnetInAnotherVpc(zone(2)), zone(2));
        assertRefused(body, "network.subnets[2].subnetId", "not in network.vpcId");
    }

    @Test
    void aVpcThatDoesNotExistIsRefused() {
        Map<String, Object> body = account.instanceBody("S3", 3, 3, null);
        body.put("network", Map.of("vpcId", "vpc-0fedcba9876543210", "subnets", subnets(-1, null, null)));
        assertRefused(body, "network.vpcId", "does not exist");
    }

    @Test
    void requiringAnS3GatewayEndpointTheVpcDoesNotHaveIsRefusedNamingTheRouteTable() {
        Map<String, Object> body = account.instanceBody("S3", 3, 3, null);
        body.put("network", Map.of("vpcId", account.customer.vpcId, "subnets", subnets(-1, null, null),
                "s3GatewayEndpoint", "REQUIRE_EXISTING"));
        assertRefused(body, "network.s3GatewayEndpoint", "No S3 gateway endpoint");
        assertRefused(body, "network.s3GatewayEndpoint", "route table rtb-");
    }

    @Test
    void anUpdateIsRefusedWhenTheInstancesSubnetIsGone() {
        String subnet = account.customer.extraSubnet(zone(0));
        String path = runningInOneZone(subnet, zone(0));

        account.customer.deleteSubnet(subnet);

        assertUpdateRefused(path, "network.subnets[0].subnetId", subnet, "does not exist");
        assertNothingRecordedAndDeletable(path);
    }

    @Test
    void anUpdateIsRefusedWhenTheInstancesSubnetHasLostItsPathOut() {
        String subnet = account.customer.extraSubnet(zone(1));
        String path = runningInOneZone(subnet, zone(1));

        String table = account.customer.isolateSubnet(subnet);

        // The same check as a create's, the same answer: the new brokers' agents could not find their peers.
        assertUpdateRefused(path, "network.subnets[0].subnetId", "Route table " + table + " of " + subnet,
                "no default route");
        assertNothingRecordedAndDeletable(path);
    }

    /** A 1-zone instance in {@code subnet}, created and running; returns its path. */
    private static String runningInOneZone(String subnet, String zone) {
        Map<String, Object> body = account.instanceBody("S3", 1, 3, null);
        body.put("network", Map.of("vpcId", account.customer.vpcId, "subnets",
                List.of(Map.of("availabilityZone", zone, "subnetId", subnet))));
        JsonNode created = api.post("/instances", body).json();
        assertThat(OnboardedAccount.finished(api, created.get("id").asString()).get("state").asString()).isEqualTo("SUCCEEDED");
        return "/instances/" + created.get("instanceId").asString();
    }

    /** A scale's plan and the scale itself are both refused on {@code field}, with a message saying each of {@code says}. */
    private static void assertUpdateRefused(String path, String field, String... says) {
        for (ApiClient.Response refused : List.of(api.post(path + "/plan", Map.of("aku", 6)),
                api.header("If-Match", "\"1\"").patch(path, Map.of("aku", 6)))) {
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("type").asString()).as(refused.toString()).endsWith("/validation-failed");
            assertThat(refused.json().get("errors")).as(refused.toString()).anySatisfy(error -> {
                assertThat(error.get("field").asString()).isEqualTo(field);
                assertThat(error.get("message").asString()).contains(says);
            });
        }
    }

    private static void assertNothingRecordedAndDeletable(String path) {
        JsonNode instance = api.get(path).json();
        assertThat(instance.get("specVersion").asInt()).as("nothing recorded").isEqualTo(1);
        assertThat(instance.get("spec").get("aku").asInt()).isEqualTo(3);
        assertThat(api.get(path + "/operations").json().get("items")).extracting(op -> op.get("type").asString())
                .containsExactly("CREATE");

        String deletion = api.delete(path).json().get("id").asString();
        assertThat(OnboardedAccount.finished(api, deletion).get("state").asString())
                .as("a delete needs neither the subnet nor a path out").isEqualTo("SUCCEEDED");
    }

    @Test
    void theAccountsOwnNetworkIsAccepted() {
        ApiClient.Response plan = api.post("/instances/plan", account.instanceBody("S3", 3, 3, null));
        assertThat(plan.status()).as(plan.toString()).isEqualTo(200);
        // What the brokers would boot, resolved now: the region's Amazon Linux AMI and the development broker image.
        assertThat(plan.json().get("changes")).filteredOn(c -> c.get("resourceType").asString().equals("launch-template"))
                .singleElement().satisfies(c -> assertThat(c.get("reason").asString()).matches(
                        "image ami-[0-9a-f]{8,17}, broker image keel-broker\\.invalid/development@sha256:0{64}, .*"));
    }

    private static void assertRefused(Map<String, Object> body, String field, String says) {
        for (String path : List.of("/instances/plan", "/instances")) {
            ApiClient.Response refused = api.post(path, body);
            assertThat(refused.status()).as(path + " " + refused).isEqualTo(400);
            assertThat(refused.json().get("errors")).as(path + " " + refused).anySatisfy(error -> {
                assertThat(error.get("field").asString()).isEqualTo(field);
                assertThat(error.get("message").asString()).contains(says);
            });
        }
        assertThat(api.get("/instances?name=" + body.get("name")).json().get("items")).as("no instance recorded").isEmpty();
    }

    /** A 3-zone body in the onboarded VPC with subnet {@code index} replaced. */
    private static Map<String, Object> withSubnet(int index, String subnetId, String declaredZone) {
        Map<String, Object> body = account.instanceBody("S3", 3, 3, null);
        body.put("network", Map.of("vpcId", account.customer.vpcId, "subnets", subnets(index, subnetId, declaredZone)));
        return body;
    }

    /** The onboarded account's three subnets, with the one at {@code index} (if any) replaced. */
    private static List<Map<String, String>> subnets(int index, String subnetId, String declaredZone) {
        List<Map<String, String>> subnets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            subnets.add(i == index ? Map.of("availabilityZone", declaredZone, "subnetId", subnetId)
                    : Map.of("availabilityZone", zone(i), "subnetId", account.customer.subnets.get(i)[1]));
        }
        return subnets;
    }

    private static String zone(int i) {
        return CustomerAccount.REGION + (char) ('a' + i);
    }
}
