package dev.keel.awsemulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;

/** The agreement events the emulator's buyers send, received by a stand-in for LocalStack's SQS. */
class AgreementEventSenderTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-25T10:00:00.250Z"), ZoneOffset.UTC);

    private HttpServer queue;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private Marketplace marketplace;
    private String queueUrl;

    @BeforeEach
    void startQueue() throws IOException {
        queue = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        queue.createContext("/", exchange -> {
            targets.add(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            requests.add(Json.parse(exchange.getRequestBody().readAllBytes()));
            byte[] ok = "{\"MessageId\": \"m\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, ok.length);
            exchange.getResponseBody().write(ok);
            exchange.close();
        });
        queue.start();
        queueUrl = "http://127.0.0.1:" + queue.getAddress().getPort() + "/queue/us-east-1/000000000000/agreements";
        marketplace = new Marketplace(CLOCK, new AgreementEventSender(URI.create(queueUrl), CLOCK));
    }

    @AfterEach
    void stopQueue() {
        queue.stop(0);
    }

    @Test
    void aBuyerWithALicenceBuysAndCancelsWithEventBridgeEvents() {
        marketplace.seedCustomer(Json.parse(("""
                {"registrationToken": "t-1", "productCode": "keel", "customerIdentifier": "cust-1",
                 "customerAWSAccountId": "111122223333", "licenseArn": "arn:aws:license-manager::111122223333:license:l-1"}
                """).getBytes(StandardCharsets.UTF_8)));
        marketplace.cancelCustomer(Json.parse("{\"registrationToken\": \"t-1\"}".getBytes(StandardCharsets.UTF_8)));

        assertThat(targets).containsOnly("AmazonSQS.SendMessage");
        assertThat(requests).allSatisfy(r -> assertThat(r.get("QueueUrl").asString()).isEqualTo(queueUrl));
        List<JsonNode> events = bodies();
        assertThat(events).extracting(e -> e.get("detail-type").asString()).containsExactly(
                "Purchase Agreement Created - Proposer", "License Updated - Manufacturer",
                "Purchase Agreement Ended - Proposer", "License Deprovisioned - Manufacturer");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.get("source").asString()).isEqualTo("aws.agreement-marketplace");
            assertThat(e.at("/detail/acceptor/accountId").asString()).isEqualTo("111122223333");
            assertThat(e.at("/detail/agreement/id").asString()).isEqualTo(events.get(0).at("/detail/agreement/id").asString());
        });
        assertThat(events.get(0).at("/detail/agreement/intent").asString()).isEqualTo("NEW");
        assertThat(events.get(0).get("time").asString()).as("EventBridge's whole seconds").isEqualTo("2026-11-25T10:00:00Z");
        assertThat(events.get(1).at("/detail/license/arn").asString())
                .isEqualTo("arn:aws:license-manager::111122223333:license:l-1");
        assertThat(events.get(1).at("/detail/product/code").asString()).isEqualTo("keel");
        assertThat(events.get(2).at("/detail/agreement/status").asString()).isEqualTo("CANCELLED");
        assertThat(events.get(3).get("time").asString()).as("the licence goes after the agreement")
                .isEqualTo("2026-11-25T10:00:01Z");
    }

    @Test
    void aLegacyBuyerSendsSnsNotifications() {
        marketplace.seedCustomer(Json.parse(("""
                {"registrationToken": "t-2", "productCode": "keel", "customerIdentifier": "cust-2"}
                """).getBytes(StandardCharsets.UTF_8)));
        marketplace.cancelCustomer(Json.parse("{\"registrationToken\": \"t-2\"}".getBytes(StandardCharsets.UTF_8)));

        List<JsonNode> envelopes = bodies();
        assertThat(envelopes).allSatisfy(e -> assertThat(e.get("Type").asString()).isEqualTo("Notification"));
        assertThat(envelopes).extracting(e -> Json.parse(e.get("Message").asString().getBytes(StandardCharsets.UTF_8)))
                .allSatisfy(m -> {
                    assertThat(m.get("customer-identifier").asString()).isEqualTo("cust-2");
                    assertThat(m.get("product-code").asString()).isEqualTo("keel");
                })
                .extracting(m -> m.get("action").asString())
                .containsExactly("subscribe-success", "entitlement-updated", "unsubscribe-pending", "unsubscribe-success");
    }

    @Test
    void aBuyerSeededUnsubscribedSendsNothing() {
        marketplace.seedCustomer(Json.parse(("""
                {"registrationToken": "t-3", "productCode": "keel", "subscribed": false}
                """).getBytes(StandardCharsets.UTF_8)));

        assertThat(requests).isEmpty();
    }

    private List<JsonNode> bodies() {
        return requests.stream().map(r -> Json.parse(r.get("MessageBody").asString().getBytes(StandardCharsets.UTF_8)))
                .toList();
    }
}
