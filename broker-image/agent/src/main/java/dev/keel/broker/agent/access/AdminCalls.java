package dev.keel.broker.agent.access;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.RetriableException;

/** Waiting on the Admin API and saying what it answered, the same way for every item a pass applies. */
final class AdminCalls {
    /** Longer than a KRaft leader election, shorter than the control plane's patience with a silent agent. */
    static final long TIMEOUT_SECONDS = 30;

    private AdminCalls() {
    }

    static <T> T await(KafkaFuture<T> future) throws ExecutionException, TimeoutException, InterruptedException {
        return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Null when the call succeeded, else what Kafka answered. */
    static String failure(KafkaFuture<?> result) throws InterruptedException {
        try {
            await(result);
            return null;
        } catch (ExecutionException | TimeoutException e) {
            return error(e);
        }
    }

    /** What Kafka answered, as the control plane shows it: {@code TopicExistsException: Topic 'x' already exists.} */
    static String error(Throwable failure) {
        Throwable cause = cause(failure);
        if (cause instanceof TimeoutException) {
            return "no answer from the broker within " + TIMEOUT_SECONDS + " s";
        }
        String name = cause.getClass().getSimpleName();
        return cause.getMessage() == null ? name : name + ": " + cause.getMessage();
    }

    /** A failure that another try may not have: a timeout, a leader election, a broker restarting. */
    static boolean isTransient(Throwable failure) {
        Throwable cause = cause(failure);
        return cause instanceof RetriableException || cause instanceof TimeoutException;
    }

    static Throwable cause(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
