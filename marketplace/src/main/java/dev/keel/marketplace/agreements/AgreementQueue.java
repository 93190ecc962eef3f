package dev.keel.marketplace.agreements;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;

/**
 * The SQS queue EventBridge (and the legacy SNS topics) deliver agreement events to. Reading does not consume: a
 * message is deleted only when the caller, having recorded it, {@linkplain #acknowledge acknowledges} it, so a crash
 * in between delivers it again (the caller's record of event ids makes that harmless).
 */
public final class AgreementQueue {

    private static final Logger log = LoggerFactory.getLogger(AgreementQueue.class);
    /** SQS's most per receive and per delete batch. */
    static final int BATCH = 10;

    private final SqsClient sqs;
    private final String queueUrl;
    private final Duration longPoll;

    /** @param longPoll how long a receive waits for a message when the queue is empty (SQS allows up to 20 s) */
    public AgreementQueue(SqsClient sqs, String queueUrl, Duration longPoll) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.longPoll = longPoll;
    }

    /** Up to 10 messages, each read as an event or reported unknown; empty when none came within the long poll. */
    public List<ReadMessage> receive() {
        List<Message> messages = sqs.receiveMessage(r -> r.queueUrl(queueUrl).maxNumberOfMessages(BATCH)
                        .waitTimeSeconds((int) longPoll.toSeconds())
                        .messageSystemAttributeNames(MessageSystemAttributeName.SENT_TIMESTAMP))
                .messages();
        List<ReadMessage> read = new ArrayList<>(messages.size());
        for (Message message : messages) {
            String sent = message.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP);
            Instant sentAt = sent == null ? Instant.now() : Instant.ofEpochMilli(Long.parseLong(sent));
            try {
                read.add(new ReadMessage.Event(message.messageId(), message.receiptHandle(),
                        AgreementMessages.parse(message.messageId(), sentAt, message.body())));
            } catch (AgreementMessages.UnknownMessageException e) {
                read.add(new ReadMessage.Unknown(message.messageId(), message.receiptHandle(), message.body(),
                        e.getMessage()));
            }
        }
        return read;
    }

    /** Deletes the messages the caller has recorded. One that fails to delete comes back and is recorded again. */
    public void acknowledge(List<? extends ReadMessage> recorded) {
        for (int from = 0; from < recorded.size(); from += BATCH) {
            List<? extends ReadMessage> batch = recorded.subList(from, Math.min(recorded.size(), from + BATCH));
            List<DeleteMessageBatchRequestEntry> entries = new ArrayList<>(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                entries.add(DeleteMessageBatchRequestEntry.builder().id(Integer.toString(i))
                        .receiptHandle(batch.get(i).receipt()).build());
            }
            DeleteMessageBatchResponse response = sqs.deleteMessageBatch(r -> r.queueUrl(queueUrl).entries(entries));
            response.failed().forEach(failure -> log.warn("Agreement message {} was not deleted ({}: {}); it comes "
                            + "back and is recognised as a duplicate",
                    batch.get(Integer.parseInt(failure.id())).messageId(), failure.code(), failure.message()));
        }
    }
}
