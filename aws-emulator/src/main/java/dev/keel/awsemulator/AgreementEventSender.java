package dev.keel.awsemulator;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;

import tools.jackson.databind.node.ObjectNode;

/**
 * Sends the agreement events a real purchase and cancellation would to the seller's queue, so a local run sees a
 * subscription become active and end by itself: for a buyer with a licence the EventBridge events of
 * {@code aws.agreement-marketplace} (Purchase Agreement Created - Proposer and License Updated - Manufacturer;
 * Purchase Agreement Ended - Proposer and License Deprovisioned - Manufacturer), for a legacy buyer (no licence) the
 * SNS notifications in their envelope (subscribe-success and entitlement-updated; unsubscribe-pending and
 * unsubscribe-success). The queue is LocalStack's, named by {@code KEEL_EMULATOR_AGREEMENT_QUEUE_URL}; without it
 * nothing is sent. Speaks SQS's JSON protocol to LocalStack, which checks no signature.
 */
final class AgreementEventSender {

    static final String QUEUE_URL_VARIABLE = "KEEL_EMULATOR_AGREEMENT_QUEUE_URL";
    private static final Logger LOG = Logger.getLogger(AgreementEventSender.class.getName());
    /** The account the emulator sells from, as the events' {@code account} and {@code proposer}. */
    private static final String SELLER_ACCOUNT = "000000000000";
    /** AWS Marketplace's own account, which owns every listing's SNS topics. */
    private static final String MARKETPLACE_ACCOUNT = "287250355862";

    /** Whom an event is about. */
    record Buyer(String productCode, String customerIdentifier, String customerAwsAccountId, String licenseArn) {

        String agreementId() {
            return "agmt-" + UUID.nameUUIDFromBytes((productCode + "/" + customerIdentifier)
                    .getBytes(StandardCharsets.UTF_8)).toString().replace("-", "").substring(0, 25);
        }
    }

    private final URI queueUrl;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    AgreementEventSender(URI queueUrl, Clock clock) {
        this.queueUrl = queueUrl;
        this.clock = clock;
    }

    /** The sender to {@value #QUEUE_URL_VARIABLE}'s queue, or null when no queue is named. */
    static AgreementEventSender fromEnvironment(Clock clock) {
        String url = System.getenv(QUEUE_URL_VARIABLE);
        return url == null || url.isBlank() ? null : new AgreementEventSender(URI.create(url), clock);
    }

    void purchased(Buyer buyer) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        if (buyer.licenseArn() == null) {
            send(sns(buyer, "subscribe-success", now), sns(buyer, "entitlement-updated", now));
            return;
        }
        ObjectNode created = eventBridge(buyer, "Purchase Agreement Created - Proposer", now, false);
        created.withObject("detail").withObject("agreement").put("intent", "NEW").put("status", "ACTIVE");
        send(created, eventBridge(buyer, "License Updated - Manufacturer", now, true));
    }

    void cancelled(Buyer buyer) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        if (buyer.licenseArn() == null) {
            send(sns(buyer, "unsubscribe-pending", now), sns(buyer, "unsubscribe-success", now.plusSeconds(1)));
            return;
        }
        ObjectNode ended = eventBridge(buyer, "Purchase Agreement Ended - Proposer", now, false);
        ended.withObject("detail").withObject("agreement").put("status", "CANCELLED");
        send(ended, eventBridge(buyer, "License Deprovisioned - Manufacturer", now.plusSeconds(1), true));
    }

    /** Shaped as AWS's seller guide shows them ("Amazon EventBridge events", events for agreements and licences). */
    private static ObjectNode eventBridge(Buyer buyer, String detailType, Instant at, boolean licence) {
        ObjectNode event = Json.object();
        event.put("version", "0").put("id", UUID.randomUUID().toString()).put("detail-type", detailType)
                .put("source", "aws.agreement-marketplace").put("account", SELLER_ACCOUNT).put("time", at.toString())
                .put("region", "us-east-1");
        event.putArray("resources").add("arn:aws:aws-marketplace::aws:agreement:" + buyer.agreementId());
        ObjectNode detail = event.putObject("detail");
        detail.put("requestId", UUID.randomUUID().toString()).put("catalog", "AWSMarketplace");
        detail.putObject("agreement").put("id", buyer.agreementId());
        if (licence) {
            detail.putObject("product").put("code", buyer.productCode());
            detail.putObject("license").put("arn", buyer.licenseArn());
        }
        detail.putObject("acceptor").put("accountId", buyer.customerAwsAccountId());
        detail.putObject("proposer").put("accountId", SELLER_ACCOUNT);
        return event;
    }

    private static ObjectNode sns(Buyer buyer, String action, Instant at) {
        ObjectNode message = Json.object().put("action", action).put("customer-identifier", buyer.customerIdentifier())
                .put("product-code", buyer.productCode());
        return Json.object().put("Type", "Notification").put("MessageId", UUID.randomUUID().toString())
                .put("TopicArn", "arn:aws:sns:us-east-1:" + MARKETPLACE_ACCOUNT + ":aws-mp-subscription-notification-"
                        + buyer.productCode())
                .put("Message", message.toString()).put("Timestamp", at.toString()).put("SignatureVersion", "1");
    }

    /** Sends each; a queue that is not there is logged, never fails the admin call that caused it. */
    private void send(ObjectNode... bodies) {
        for (ObjectNode body : List.of(bodies)) {
            ObjectNode request = Json.object().put("QueueUrl", queueUrl.toString()).put("MessageBody", body.toString());
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(queueUrl.resolve("/"))
                                .header("Content-Type", "application/x-amz-json-1.0")
                                .header("X-Amz-Target", "AmazonSQS.SendMessage")
                                .header("Authorization", "AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/sqs/"
                                        + "aws4_request, SignedHeaders=host, Signature=0")
                                .POST(HttpRequest.BodyPublishers.ofString(request.toString())).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    LOG.warning("The agreement-event queue refused an event (" + response.statusCode() + "): "
                            + response.body());
                }
            } catch (java.io.IOException e) {
                LOG.warning("Sending an agreement event to " + queueUrl + " failed: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
