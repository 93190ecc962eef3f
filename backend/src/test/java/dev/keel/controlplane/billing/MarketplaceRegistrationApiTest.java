package dev.keel.controlplane.billing;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.keel.controlplane.support.ApiClient;
import dev.keel.controlplane.support.ApiTest;
import dev.keel.controlplane.support.Database;
import dev.keel.controlplane.support.MarketplaceEmulator;
import dev.keel.controlplane.support.RawHttp;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A buyer from AWS Marketplace, end to end over HTTP: the registration URL resolves the token with the emulator's
 * ResolveCustomer and sends the browser to the console with a cookie binding the registration to it; an admin signed
 * in in that browser links the reference to their organization.
 */
class MarketplaceRegistrationApiTest extends ApiTest {

    private static final HttpClient BROWSER = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

    @Value("${keel.marketplace.product-code}")
    String productCode;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ConfigurableApplicationContext context;

    /**
     * Each test starts, and leaves acme and globex, without a subscription: one would decide what other tests may
     * create (an ended one refuses every create), and an earlier run may have left one.
     */
    @BeforeEach
    @AfterEach
    void noSubscriptions() {
        Database.withoutSubscriptions("acme", "globex");
    }

    @Test
    void theRegistrationUrlResolvesTheBuyerAndSendsTheBrowserToTheConsolesRegistrationPage() throws Exception {
        JsonNode buyer = MarketplaceEmulator.mint(productCode, null);

        HttpResponse<String> answer = register("x-amzn-marketplace-token=" + encode(buyer.get("registrationToken").asString()));

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
        String location = answer.headers().firstValue("Location").orElseThrow();
        assertThat(location).matches("http://localhost:5173/register\\?reference=[0-9a-f-]{36}");
        assertThat(answer.headers().firstValue("Cache-Control")).hasValue("no-store");
        UUID reference = UUID.fromString(location.substring(location.indexOf('=') + 1));
        String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie).startsWith(RegistrationBrowser.COOKIE + "=").contains("; Path=/api/v1/marketplace/registrations")
                .contains("; Max-Age=3600").contains("; HttpOnly").contains("; SameSite=Lax")
                .as("the local profile serves plain HTTP").doesNotContain("Secure");
        Registered registered = new Registered(reference, cookie.substring(0, cookie.indexOf(';')));

        JsonNode registration = inBrowser(ADMIN, registered).get("/marketplace/registrations/" + reference).json();
        assertThat(registration.get("customerAwsAccountId").asString()).isEqualTo(buyer.get("customerAWSAccountId").asString());
        assertThat(registration.get("licenseArn").asString()).isEqualTo(buyer.get("licenseArn").asString());
        assertThat(registration.get("productCode").asString()).isEqualTo(productCode);
        assertThat(Instant.parse(registration.get("expiresAt").asString()))
                .isBetween(Instant.now().plus(Duration.ofMinutes(59)), Instant.now().plus(Duration.ofMinutes(61)));
        assertThat(registration.get("subscriptionId").isNull()).isTrue();
        assertThat(registration.toString()).doesNotContain(registered.cookie().substring(registered.cookie().indexOf('=') + 1));
        assertThat(subscriptionsOf(buyer)).as("the registration URL links nothing").isZero();
    }

    @Test
    void anAdminLinksTheSubscriptionToTheirOrganizationOnceAndItIsAnnouncedAfterCommit() {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));
        UUID reference = registered.reference();
        List<String> announced = new CopyOnWriteArrayList<>();
        context.addApplicationListener(ApplicationListener.<SubscriptionLinked>forPayload(linked -> announced.add(
                linked.subscriptionId() + " " + jdbc.sql("SELECT 'committed' FROM marketplace_subscriptions WHERE id = ?")
                        .param(linked.subscriptionId()).query(String.class).optional().orElse("not committed"))));

        ApiClient.Response linked = inBrowser(ADMIN, registered).post("/marketplace/registrations", Map.of("reference", reference));

        assertThat(linked.status()).as(linked.toString()).isEqualTo(201);
        String subscription = linked.json().get("subscriptionId").asString();
        assertThat(linked.json().get("linkedAt").isNull()).isFalse();
        Map<String, Object> row = jdbc.sql("""
                        SELECT s.state, o.slug, s.license_arn FROM marketplace_subscriptions s
                        JOIN organizations o ON o.id = s.organization_id WHERE s.id = ?
                        """).param(UUID.fromString(subscription)).query().singleRow();
        assertThat(row).containsEntry("slug", "acme")
                .containsEntry("license_arn", linked.json().get("licenseArn").asString());
        // Linked PENDING; the purchase's agreement events may apply as soon as the link is announced.
        assertThat(row.get("state")).isIn("PENDING", "ACTIVE");
        assertThat(announced).as("published once, after the row is committed").containsExactly(subscription + " committed");
        JsonNode audited = api(ADMIN).get("/audit-events?resourceType=marketplace-subscription&resourceId=" + subscription)
                .json().get("items");
        assertThat(audited).singleElement().satisfies(event -> {
            assertThat(event.get("action").asString()).isEqualTo("marketplace-subscription.link");
            assertThat(event.get("actor").get("username").asString()).isEqualTo(ADMIN);
        });

        for (ApiClient.Response again : List.of(
                inBrowser(ADMIN, registered).post("/marketplace/registrations", Map.of("reference", reference)),
                inBrowser(ADMIN, registered).get("/marketplace/registrations/" + reference))) {
            assertProblem(again, 409, "registration-used", "already linked to acme");
        }
        ApiClient.Response otherOrganization = inBrowser(OTHER_ORG_ADMIN, registered).get("/marketplace/registrations/" + reference);
        assertProblem(otherOrganization, 409, "registration-used", "already used");
        assertThat(otherOrganization.body()).doesNotContain("acme");
        assertThat(announced).hasSize(1);
    }

    @Test
    void onlyAnAdminMaySeeOrLinkARegistrationEvenInItsBrowser() {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));
        UUID reference = registered.reference();

        assertProblem(inBrowser(EDITOR, registered).post("/marketplace/registrations", Map.of("reference", reference)),
                403, "forbidden", "Linking a subscription to acme needs the admin role; you are editor in acme");
        assertThat(inBrowser(VIEWER, registered).post("/marketplace/registrations", Map.of("reference", reference)).status())
                .isEqualTo(403);
        for (String user : List.of(EDITOR, VIEWER)) {
            String role = user.equals(EDITOR) ? "editor" : "viewer";
            ApiClient.Response seen = inBrowser(user, registered).get("/marketplace/registrations/" + reference);
            assertProblem(seen, 403, "forbidden", "needs the admin role; you are " + role + " in acme");
            assertThat(seen.body()).doesNotContain("licenseArn");
        }
        assertThat(inBrowser(ADMIN, registered).get("/marketplace/registrations/" + reference).status())
                .as("still unused").isEqualTo(200);
    }

    @Test
    void onlyTheBrowserAwsSentMaySeeOrLinkTheRegistration() throws Exception {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));
        UUID reference = registered.reference();
        Registered later = registered(MarketplaceEmulator.mint(productCode, null));

        for (ApiClient elsewhere : List.of(api(ADMIN), api(ADMIN).header("Cookie", later.cookie()),
                api(ADMIN).header("Cookie", RegistrationBrowser.COOKIE + "=" + RegistrationBrowser.newSecret()))) {
            ApiClient.Response seen = elsewhere.get("/marketplace/registrations/" + reference);
            assertProblem(seen, 403, "registration-other-browser", "only in the browser AWS Marketplace sent");
            assertThat(seen.body()).doesNotContain("licenseArn");
            assertProblem(elsewhere.post("/marketplace/registrations", Map.of("reference", reference)), 403,
                    "registration-other-browser", "Set up your account on AWS Marketplace again");
        }
        assertProblem(api(ADMIN).get("/marketplace/registrations/" + reference), 403, "registration-other-browser",
                "came without that browser's cookie (" + RegistrationBrowser.COOKIE + ")");
        assertThat(jdbc.sql("SELECT used_at IS NULL FROM marketplace_registrations WHERE reference = ?").param(reference)
                .query(Boolean.class).single()).as("nothing was linked").isTrue();
        assertThat(jdbc.sql("SELECT browser_secret_sha256 FROM marketplace_registrations WHERE reference = ?")
                .param(reference).query(byte[].class).single())
                .as("only the secret's hash is kept").hasSize(32)
                .isNotEqualTo(registered.cookie().substring(registered.cookie().indexOf('=') + 1).getBytes(StandardCharsets.US_ASCII));

        assertThat(inBrowser(ADMIN, registered).post("/marketplace/registrations", Map.of("reference", reference)).status())
                .as("the admin in the browser that came from AWS").isEqualTo(201);
    }

    @Test
    void anExpiredOrUnknownReferenceIsRefusedNamingTheReference() {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));
        UUID reference = registered.reference();
        jdbc.sql("UPDATE marketplace_registrations SET expires_at = now() - interval '1 second' WHERE reference = ?")
                .param(reference).update();

        assertProblem(inBrowser(ADMIN, registered).get("/marketplace/registrations/" + reference), 410,
                "registration-expired", "expired at");
        assertProblem(inBrowser(ADMIN, registered).post("/marketplace/registrations", Map.of("reference", reference)), 410,
                "registration-expired", "Set up your account again");
        assertProblem(api(ADMIN).post("/marketplace/registrations", Map.of("reference", UUID.randomUUID())), 404,
                "not-found", "Set up your account again");
        assertThat(api(ADMIN).get("/marketplace/registrations/not-a-reference").status()).isEqualTo(404);
        for (Map<String, Object> body : List.<Map<String, Object>>of(Map.of(), Map.of("reference", "not-a-uuid"),
                Map.of("reference", reference, "organization", "globex"))) {
            ApiClient.Response refused = api(ADMIN).post("/marketplace/registrations", body);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("errors").findValuesAsString("field")).as(refused.toString())
                    .containsAnyOf("reference", "organization");
        }
    }

    @Test
    void anOrganizationWithACurrentSubscriptionCannotLinkAnother() {
        Registered first = registered(MarketplaceEmulator.mint(productCode, null));
        Registered second = registered(MarketplaceEmulator.mint(productCode, null));
        assertThat(link(ADMIN, first).status()).isEqualTo(201);

        assertProblem(link(ADMIN, second), 409, "subscription-exists", "acme already has a Marketplace subscription");
        assertThat(link(OTHER_ORG_ADMIN, second).status()).as("the reference was not used up by the refusal").isEqualTo(201);

        jdbc.sql("UPDATE marketplace_subscriptions SET state = 'ENDED', ended_at = now() WHERE license_arn = ?")
                .param(api(ADMIN).get("/audit-events?resourceType=marketplace-subscription&limit=1").json().get("items")
                        .get(0).get("after").get("licenseArn").asString()).update();
        Registered third = registered(MarketplaceEmulator.mint(productCode, null));
        assertThat(link(ADMIN, third).status()).as("once the subscription has ended, another may be linked").isEqualTo(201);
    }

    @Test
    void aRetriedLinkWithItsIdempotencyKeyIsReplayed() {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));
        ApiClient admin = inBrowser(ADMIN, registered).header("Idempotency-Key", UUID.randomUUID().toString());

        ApiClient.Response first = admin.post("/marketplace/registrations", Map.of("reference", registered.reference()));
        ApiClient.Response replay = admin.post("/marketplace/registrations", Map.of("reference", registered.reference()));

        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.status()).isEqualTo(201);
        assertThat(replay.header("Idempotency-Replayed")).hasValue("true");
        assertThat(replay.json()).isEqualTo(first.json());
    }

    @Test
    void ofTwoOrganizationsRacingForOneLicenceOneLinksAndTheOtherIsToldItIsTaken() throws Exception {
        String licence = "arn:aws:license-manager::123456789012:license:l-" + UUID.randomUUID().toString().replace("-", "");
        String account = String.valueOf(100_000_000_000L + (System.nanoTime() % 899_999_999_999L));
        Registered acmes = registered(MarketplaceEmulator.seed(productCode, "race-a-" + UUID.randomUUID(), account, licence));
        Registered globexs = registered(MarketplaceEmulator.seed(productCode, "race-b-" + UUID.randomUUID(), account, licence));

        List<ApiClient.Response> answers = race(() -> link(ADMIN, acmes), () -> link(OTHER_ORG_ADMIN, globexs));

        assertThat(answers).extracting(ApiClient.Response::status).containsExactlyInAnyOrder(201, 409);
        ApiClient.Response lost = answers.stream().filter(a -> a.status() == 409).findFirst().orElseThrow();
        assertProblem(lost, 409, "license-already-linked", "already linked to an organization");
        assertThat(lost.body()).doesNotContain("acme").doesNotContain("globex");
        assertThat(jdbc.sql("SELECT count(*) FROM marketplace_subscriptions WHERE license_arn = ?").param(licence)
                .query(Integer.class).single()).isEqualTo(1);

        HttpResponse<String> third = register("x-amzn-marketplace-token="
                + MarketplaceEmulator.seed(productCode, "race-c-" + UUID.randomUUID(), account, licence)
                .get("registrationToken").asString());
        assertPage(third, 409, "already set up");
    }

    @Test
    void ofTwoOrganizationsRacingForOneReferenceOneLinks() throws Exception {
        Registered registered = registered(MarketplaceEmulator.mint(productCode, null));

        List<ApiClient.Response> answers = race(() -> link(ADMIN, registered), () -> link(OTHER_ORG_ADMIN, registered));

        assertThat(answers).extracting(ApiClient.Response::status).containsExactlyInAnyOrder(201, 409);
        assertThat(answers).filteredOn(a -> a.status() == 409).singleElement()
                .satisfies(a -> assertThat(a.json().get("type").asString()).endsWith("/registration-used"));
    }

    @Test
    void aTokenTheRegistrationUrlCannotUseGetsAPageSayingWhatHappenedAndWhatToDo() throws Exception {
        assertPage(register("x-amzn-marketplace-token=forged-" + UUID.randomUUID()), 400, "not valid");
        String expired = MarketplaceEmulator.mint(productCode, Instant.now().minusSeconds(1)).get("registrationToken").asString();
        assertPage(register("x-amzn-marketplace-token=" + encode(expired)), 410, "expired");
        String elsewhere = MarketplaceEmulator.mint("someone-elses-product", null).get("registrationToken").asString();
        assertPage(register("x-amzn-marketplace-token=" + encode(elsewhere)), 400, "another product");
        assertPage(register("other=1"), 400, "without the token");
        assertPage(register("x-amzn-marketplace-token=" + "a".repeat(9000)), 413, "too large");
        HttpResponse<String> asJson = BROWSER.send(HttpRequest.newBuilder(URI.create(registrationUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("x-amzn-marketplace-token=forged")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertPage(asJson, 400, "not valid");

        HttpResponse<String> json = BROWSER.send(HttpRequest.newBuilder(URI.create(registrationUrl()))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertPage(json, 415, "with a form");

        RawHttp.Response chunked = RawHttp.send(port, "POST", "/marketplace/register",
                Map.of("Content-Type", "application/x-www-form-urlencoded", "Transfer-Encoding", "chunked"),
                chunked("x-amzn-marketplace-token=" + "b".repeat(20_000)));
        assertThat(chunked.status()).as("a streamed body is cut off at the limit too").isEqualTo(413);
    }

    @Test
    void whatTheApisFiltersRefuseOnTheRegistrationUrlIsAPageToo() throws Exception {
        HttpResponse<String> overApiLimit = register("x-amzn-marketplace-token=" + "a".repeat(1_100_000));
        assertPage(overApiLimit, 413, "too large");
        assertThat(overApiLimit.body()).contains("Go back to AWS Marketplace");

        RawHttp.Response badQuery = RawHttp.send(port, "POST", "/marketplace/register?%zz=1",
                Map.of("Content-Type", "application/x-www-form-urlencoded"), "x-amzn-marketplace-token=forged".getBytes());
        assertThat(badQuery.status()).as(badQuery.body()).isEqualTo(400);
        assertThat(badQuery.header("Content-Type")).startsWith("text/html");
        assertThat(badQuery.body()).contains("cannot be read").contains("Go back to AWS Marketplace");

        ApiClient.Response api = api(ADMIN).post("/marketplace/registrations", Map.of("reference", "a".repeat(1_100_000)));
        assertThat(api.status()).as("the API itself still answers problem documents").isEqualTo(413);
        assertThat(api.header("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
    }

    @Test
    void theRegistrationUrlIsTheOnlyPathOpenWithoutAToken() throws Exception {
        HttpResponse<String> crossSite = BROWSER.send(HttpRequest.newBuilder(URI.create(registrationUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Origin", "https://aws.amazon.com")
                .POST(HttpRequest.BodyPublishers.ofString("x-amzn-marketplace-token=" + encode(
                        MarketplaceEmulator.mint(productCode, null).get("registrationToken").asString()))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(crossSite.statusCode()).as("AWS posts cross-site: no CSRF token").isEqualTo(303);

        for (String path : List.of("/marketplace/register/extra", "/marketplace/registrations")) {
            HttpResponse<String> other = BROWSER.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("x-amzn-marketplace-token=x")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(other.statusCode()).as(path).isEqualTo(401);
        }
        HttpResponse<String> get = BROWSER.send(HttpRequest.newBuilder(URI.create(registrationUrl())).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).as("only AWS's POST is open").isEqualTo(401);
        assertThat(anonymous().post("/marketplace/registrations", Map.of("reference", UUID.randomUUID())).status())
                .as("linking needs a token").isEqualTo(401);
    }

    /** A reference, with the cookie ({@code name=value}) of the browser the registration URL sent on with it. */
    private record Registered(UUID reference, String cookie) {
    }

    private Registered registered(JsonNode buyer) {
        try {
            HttpResponse<String> answer = register("x-amzn-marketplace-token=" + encode(buyer.get("registrationToken").asString()));
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(303);
            String location = answer.headers().firstValue("Location").orElseThrow();
            String cookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
            return new Registered(UUID.fromString(location.substring(location.indexOf("reference=") + "reference=".length())),
                    cookie.substring(0, cookie.indexOf(';')));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code user} signed in in the browser that came from AWS with {@code registered}. */
    private ApiClient inBrowser(String user, Registered registered) {
        return api(user).header("Cookie", registered.cookie());
    }

    private ApiClient.Response link(String user, Registered registered) {
        return inBrowser(user, registered).post("/marketplace/registrations", Map.of("reference", registered.reference()));
    }

    private HttpResponse<String> register(String form) throws Exception {
        return BROWSER.send(HttpRequest.newBuilder(URI.create(registrationUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String registrationUrl() {
        return "http://localhost:" + port + "/marketplace/register";
    }

    private int subscriptionsOf(JsonNode buyer) {
        return jdbc.sql("SELECT count(*) FROM marketplace_subscriptions WHERE license_arn = ?")
                .param(buyer.get("licenseArn").asString()).query(Integer.class).single();
    }

    @SafeVarargs
    private static List<ApiClient.Response> race(java.util.concurrent.Callable<ApiClient.Response>... calls) throws Exception {
        CyclicBarrier start = new CyclicBarrier(calls.length);
        try (ExecutorService pool = Executors.newFixedThreadPool(calls.length)) {
            List<Future<ApiClient.Response>> futures = new java.util.ArrayList<>();
            for (var call : calls) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            List<ApiClient.Response> answers = new java.util.ArrayList<>();
            for (Future<ApiClient.Response> future : futures) {
                answers.add(future.get());
            }
            return answers;
        }
    }

    private static void assertProblem(ApiClient.Response response, int status, String type, String message) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.json().get("type").asString()).isEqualTo("https://keel.dev/problems/" + type);
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo("reference");
        assertThat(response.json().get("errors").get(0).get("message").asString()).contains(message);
    }

    private static void assertPage(HttpResponse<String> page, int status, String says) {
        assertThat(page.statusCode()).as(page.body()).isEqualTo(status);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).startsWith("<!doctype html>").contains(says).contains("Request id")
                .doesNotContain("Exception").doesNotContain("\"type\"");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static byte[] chunked(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        return (Integer.toHexString(bytes.length) + "\r\n" + body + "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }
}
