package dev.keel.controlplane.idempotency;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import tools.jackson.databind.json.JsonMapper;

/**
 * The answer a request's change gives, kept with the change under the request's {@code Idempotency-Key}: a request
 * whose process dies after its change committed but before its response was stored is answered with it when retried,
 * rather than acting again. A controller makes the change through {@link #answer}, saying how it answers what the
 * change made; the service hands what it made to {@link #record} in the transaction that commits the change, where
 * that answer is made and stored. Without a key, or outside such a request, both only pass the change through.
 */
@Component
public class ChangeAnswers {

    private final IdempotencyRecords records;
    private final JsonMapper json;
    private final ThreadLocal<Keyed> current = new ThreadLocal<>();

    ChangeAnswers(IdempotencyRecords records, JsonMapper json) {
        this.records = records;
        this.json = json;
    }

    /** Makes the change and answers with what {@code answer} makes of its result. */
    public <T, R> ResponseEntity<R> answer(Supplier<T> change, Function<T, ResponseEntity<R>> answer) {
        Keyed keyed = current.get();
        if (keyed == null) {
            return answer.apply(change.get());
        }
        keyed.answer = made -> answer.apply(cast(made));
        try {
            return answer.apply(change.get());
        } finally {
            keyed.answer = null;
        }
    }

    /**
     * What the current request's change made, handed over in the transaction that commits the change: its answer is
     * stored with it. Refused (and the change with it) when a retry has taken the request's key over.
     */
    public <T> T record(T made) {
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("A change's answer is recorded in the transaction that commits the change");
        }
        Keyed keyed = current.get();
        if (keyed != null && keyed.answer != null) {
            records.recordEffect(keyed.owner, keyed.key, keyed.holder, response(keyed.answer.apply(made)));
        }
        return made;
    }

    /** The response as the API writes it: the JSON body, and the headers a replay repeats. */
    private IdempotencyRecords.Response response(ResponseEntity<?> answer) {
        Map<String, String> headers = new LinkedHashMap<>();
        byte[] body = new byte[0];
        if (answer.getBody() != null) {
            headers.put(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
            body = json.writeValueAsBytes(answer.getBody());
        }
        for (String name : IdempotencyFilter.REPLAYED_HEADERS) {
            String value = answer.getHeaders().getFirst(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        return new IdempotencyRecords.Response(answer.getStatusCode().value(), headers, body);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object made) {
        return (T) made;
    }

    /** Until closed, the changes of this thread's request, which holds {@code key}, store their answers under it. */
    UnderKey underKey(IdempotencyRecords.Owner owner, String key, UUID holder) {
        current.set(new Keyed(owner, key, holder));
        return current::remove;
    }

    interface UnderKey extends AutoCloseable {
        @Override
        void close();
    }

    private static final class Keyed {
        private final IdempotencyRecords.Owner owner;
        private final String key;
        private final UUID holder;
        private Function<Object, ResponseEntity<?>> answer;

        private Keyed(IdempotencyRecords.Owner owner, String key, UUID holder) {
            this.owner = owner;
            this.key = key;
            this.holder = holder;
        }
    }
}
