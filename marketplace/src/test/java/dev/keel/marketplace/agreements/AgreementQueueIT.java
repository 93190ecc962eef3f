package dev.keel.marketplace.agreements;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.keel.marketplace.MarketplaceClients;
import dev.keel.marketplace.TestStack;
import dev.keel.marketplace.agreements.AgreementEvent.Kind;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The agreement-event queue on LocalStack's SQS. */
class AgreementQueueIT {

    private MarketplaceClients clients;
    private String queueUrl;

    @BeforeEach
    void createQueue() {
        clients = TestStack.clients();
        // A short visibility timeout: a message read and not acknowledged comes back within the test.
        queueUrl = clients.sqs().createQueue(r -> r.queueName("keel-agreements-it-" + UUID.randomUUID())
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "1"))).queueUrl();
    }

    @AfterEach
    void deleteQueue() {
        clients.sqs().deleteQueue(r -> r.queueUrl(queueUrl));
        clients.close();
    }

    @Test
    void readsBothShapesAndReportsTheUnknown() {
        send(AgreementMessagesTest.eventBridge("ev-1", "Purchase Agreement Created - Proposer", "2026-11-25T10:00:03Z",
                "ACTIVE", false));
        send(AgreementMessagesTest.sns("sns-1", "2026-11-25T10:00:05Z", "unsubscribe-pending"));
        send("{\"unexpected\": true}");
        AgreementQueue queue = new AgreementQueue(clients.sqs(), queueUrl, Duration.ofSeconds(1));

        List<ReadMessage> read = receiveAtLeast(queue, 3);

        assertThat(read).filteredOn(ReadMessage.Event.class::isInstance)
                .map(m -> ((ReadMessage.Event) m).event())
                .extracting(AgreementEvent::id, AgreementEvent::kind)
                .containsExactlyInAnyOrder(Tuple.tuple("ev-1", Kind.PURCHASED),
                        Tuple.tuple("sns-1", Kind.CANCELLING));
        assertThat(read).filteredOn(ReadMessage.Unknown.class::isInstance).singleElement()
                .satisfies(m -> assertThat(((ReadMessage.Unknown) m).body()).isEqualTo("{\"unexpected\": true}"));
    }

    @Test
    void keepsAMessageUntilItIsAcknowledged() throws InterruptedException {
        send(AgreementMessagesTest.sns("sns-2", "2026-11-25T10:00:05Z", "entitlement-updated"));
        AgreementQueue queue = new AgreementQueue(clients.sqs(), queueUrl, Duration.ofSeconds(1));

        List<ReadMessage> first = receiveAtLeast(queue, 1);
        Thread.sleep(1500);
        List<ReadMessage> again = receiveAtLeast(queue, 1);
        queue.acknowledge(again);
        Thread.sleep(1500);

        assertThat(first).extracting(ReadMessage::messageId).isEqualTo(again.stream().map(ReadMessage::messageId).toList());
        assertThat(queue.receive()).isEmpty();
    }

    @Test
    void acknowledgesMoreThanOneBatch() {
        // Long enough that none comes back while the twelve are read.
        clients.sqs().setQueueAttributes(r -> r.queueUrl(queueUrl)
                .attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "60")));
        for (int i = 0; i < 12; i++) {
            send(AgreementMessagesTest.sns("sns-batch-" + i, "2026-11-25T10:00:05Z", "entitlement-updated"));
        }
        AgreementQueue queue = new AgreementQueue(clients.sqs(), queueUrl, Duration.ofSeconds(1));

        List<ReadMessage> read = receiveAtLeast(queue, 12);
        assertThat(read).extracting(ReadMessage::messageId).doesNotHaveDuplicates().hasSize(12);
        queue.acknowledge(read);

        assertThat(clients.sqs().getQueueAttributes(r -> r.queueUrl(queueUrl)
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
                .attributes().values()).containsOnly("0");
    }

    private void send(String body) {
        clients.sqs().sendMessage(r -> r.queueUrl(queueUrl).messageBody(body));
    }

    private static List<ReadMessage> receiveAtLeast(AgreementQueue queue, int count) {
        List<ReadMessage> read = new ArrayList<>();
        Instant deadline = Instant.now().plusSeconds(15);
        while (read.size() < count && Instant.now().isBefore(deadline)) {
            read.addAll(queue.receive());
        }
        return read;
    }
}
