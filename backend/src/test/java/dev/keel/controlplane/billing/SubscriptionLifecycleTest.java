package dev.keel.controlplane.billing;

import static dev.keel.controlplane.billing.SubscriptionState.ACTIVE;
import static dev.keel.controlplane.billing.SubscriptionState.AMENDED;
import static dev.keel.controlplane.billing.SubscriptionState.CANCELLING;
import static dev.keel.controlplane.billing.SubscriptionState.ENDED;
import static dev.keel.controlplane.billing.SubscriptionState.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.keel.controlplane.billing.SubscriptionLifecycle.Standing;
import dev.keel.marketplace.agreements.AgreementEvent.Kind;

class SubscriptionLifecycleTest {

    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    /** Every state and event: the state an event at T+1s (newer), T (same second) or T-1s (older) moves it to. */
    @ParameterizedTest(name = "{0} + {1}: newer {2}, same second {3}, older {4}")
    @CsvSource({
            // state,    event,               newer,      same second, older
            "PENDING,    PURCHASED,           ACTIVE,     ACTIVE,      ACTIVE",
            "PENDING,    AMENDED,             AMENDED,    AMENDED,     AMENDED",
            "PENDING,    CANCELLING,          CANCELLING, CANCELLING,  CANCELLING",
            "PENDING,    ENDED,               ENDED,      ENDED,       ENDED",
            "PENDING,    SUBSCRIBE_FAILED,    ENDED,      ENDED,       ENDED",
            "PENDING,    SUPERSEDED,          -,          -,           -",
            "PENDING,    ENTITLEMENT_CHANGED, -,          -,           -",
            "ACTIVE,     PURCHASED,           ACTIVE,     -,           -",
            "ACTIVE,     AMENDED,             AMENDED,    AMENDED,     -",
            "ACTIVE,     CANCELLING,          CANCELLING, CANCELLING,  -",
            "ACTIVE,     ENDED,               ENDED,      ENDED,       ENDED",
            "ACTIVE,     SUBSCRIBE_FAILED,    -,          -,           -",
            "ACTIVE,     SUPERSEDED,          -,          -,           -",
            "ACTIVE,     ENTITLEMENT_CHANGED, -,          -,           -",
            "AMENDED,    PURCHASED,           ACTIVE,     -,           -",
            "AMENDED,    AMENDED,             AMENDED,    -,           -",
            "AMENDED,    CANCELLING,          CANCELLING, CANCELLING,  -",
            "AMENDED,    ENDED,               ENDED,      ENDED,       ENDED",
            "AMENDED,    SUBSCRIBE_FAILED,    -,          -,           -",
            "CANCELLING, PURCHASED,           ACTIVE,     -,           -",
            "CANCELLING, AMENDED,             AMENDED,    -,           -",
            "CANCELLING, CANCELLING,          CANCELLING, -,           -",
            "CANCELLING, ENDED,               ENDED,      ENDED,       ENDED",
            "CANCELLING, SUBSCRIBE_FAILED,    -,          -,           -",
            "ENDED,      PURCHASED,           -,          -,           -",
            "ENDED,      AMENDED,             -,          -,           -",
            "ENDED,      CANCELLING,          -,          -,           -",
            "ENDED,      ENDED,               -,          -,           ENDED",
            "ENDED,      SUBSCRIBE_FAILED,    -,          -,           -",
            "ENDED,      ENTITLEMENT_CHANGED, -,          -,           -",
    })
    void theRuleTable(SubscriptionState state, Kind kind, String newer, String same, String older) {
        Standing current = new Standing(state, T);

        assertThat(name(SubscriptionLifecycle.apply(current, kind, T.plusSeconds(1)))).as("newer").isEqualTo(newer);
        assertThat(name(SubscriptionLifecycle.apply(current, kind, T))).as("same second").isEqualTo(same);
        assertThat(name(SubscriptionLifecycle.apply(current, kind, T.minusSeconds(1)))).as("older").isEqualTo(older);
    }

    @Test
    void anAppliedEventsTimeBecomesTheStatesTime() {
        assertThat(SubscriptionLifecycle.apply(new Standing(PENDING, T), Kind.PURCHASED, T.minusSeconds(60)))
                .as("the purchase happened before the link").contains(new Standing(ACTIVE, T.minusSeconds(60)));
        assertThat(SubscriptionLifecycle.apply(new Standing(AMENDED, T), Kind.ENDED, T.minusSeconds(5)))
                .as("an end delivered late ends it when it ended").contains(new Standing(ENDED, T.minusSeconds(5)));
        assertThat(SubscriptionLifecycle.apply(new Standing(ENDED, T), Kind.ENDED, T.minusSeconds(5)))
                .as("the earliest end is when it ended").contains(new Standing(ENDED, T.minusSeconds(5)));
    }

    /** A buyer's whole story, as AWS sends it to a seller that is both proposer and manufacturer. */
    private static final List<Event> STORY = List.of(
            new Event("created-proposer", Kind.PURCHASED, T),
            new Event("created-manufacturer", Kind.PURCHASED, T),
            new Event("licence-updated", Kind.ENTITLEMENT_CHANGED, T.plusSeconds(1)),
            new Event("amended", Kind.AMENDED, T.plusSeconds(3600)),
            new Event("licence-updated-2", Kind.ENTITLEMENT_CHANGED, T.plusSeconds(3600)),
            new Event("renewed-old-ended", Kind.SUPERSEDED, T.plusSeconds(7200)),
            new Event("renewed", Kind.PURCHASED, T.plusSeconds(7200)),
            new Event("ended", Kind.ENDED, T.plusSeconds(9000)),
            new Event("deprovisioned", Kind.ENDED, T.plusSeconds(9060)));

    @Test
    void anyOrderAndAnyRepetitionEndsTheSame() {
        Random random = new Random(12);
        for (int round = 0; round < 500; round++) {
            List<Event> delivered = new ArrayList<>(STORY);
            delivered.addAll(STORY.subList(0, random.nextInt(STORY.size())));
            Collections.shuffle(delivered, random);
            Standing once = deliver(delivered);
            assertThat(deliver(concat(delivered, delivered))).as("applied twice").isEqualTo(once);
            assertThat(once).as("order %s", delivered).isEqualTo(new Standing(ENDED, T.plusSeconds(9000)));
        }
    }

    @Test
    void withoutAnEndTheNewestEventDecidesInAnyOrder() {
        List<Event> story = List.of(new Event("created", Kind.PURCHASED, T),
                new Event("amended", Kind.AMENDED, T.plusSeconds(60)),
                new Event("unsubscribe-pending", Kind.CANCELLING, T.plusSeconds(60)),
                new Event("licence-updated", Kind.ENTITLEMENT_CHANGED, T.plusSeconds(120)));
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            List<Event> delivered = new ArrayList<>(story);
            Collections.shuffle(delivered, random);
            assertThat(deliver(concat(delivered, delivered))).as("order %s", delivered)
                    .isEqualTo(new Standing(CANCELLING, T.plusSeconds(60)));
        }
    }

    private record Event(String id, Kind kind, Instant at) {
    }

    /**
     * Applies the events in turn to a subscription linked after all of them; a repeated one is applied again (the
     * event log lets each id through once, the rule does not count on it).
     */
    private static Standing deliver(List<Event> events) {
        Standing standing = new Standing(PENDING, T.plusSeconds(100_000));
        for (Event event : events) {
            standing = SubscriptionLifecycle.apply(standing, event.kind(), event.at()).orElse(standing);
        }
        return standing;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static String name(Optional<Standing> next) {
        return next.map(s -> s.state().name()).orElse("-");
    }
}
