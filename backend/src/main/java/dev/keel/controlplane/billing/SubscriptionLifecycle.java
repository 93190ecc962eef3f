package dev.keel.controlplane.billing;

import java.time.Instant;
import java.util.Optional;

import dev.keel.marketplace.agreements.AgreementEvent.Kind;

/**
 * What an agreement event does to a subscription. AWS delivers events at least once and in any order, so the rule
 * must give the same final state whatever order and however often a set of events arrives:
 *
 * <table>
 *   <caption>The state an event moves a subscription to (— : none, the event is ignored)</caption>
 *   <tr><th>state \ event</th><th>PURCHASED</th><th>AMENDED</th><th>CANCELLING</th><th>ENDED</th>
 *       <th>SUBSCRIBE_FAILED</th><th>SUPERSEDED, ENTITLEMENT_CHANGED</th></tr>
 *   <tr><td>PENDING</td><td>ACTIVE</td><td>AMENDED</td><td>CANCELLING</td><td>ENDED</td><td>ENDED</td><td>—</td></tr>
 *   <tr><td>ACTIVE, AMENDED, CANCELLING</td><td>ACTIVE if newer</td><td>AMENDED if newer</td>
 *       <td>CANCELLING if newer</td><td>ENDED</td><td>—</td><td>—</td></tr>
 *   <tr><td>ENDED</td><td>—</td><td>—</td><td>—</td><td>—</td><td>—</td><td>—</td></tr>
 * </table>
 *
 * <ul>
 *   <li><b>Newer</b>: the event happened after the latest applied one ({@code state_event_at}); at the same second
 *       (EventBridge's precision) the later state of ACTIVE → AMENDED → CANCELLING wins. An older event never undoes
 *       a newer one, and a duplicate is never newer than itself.</li>
 *   <li>A PENDING subscription takes any event, whatever its time: the buyer links after buying, so the purchase
 *       happened before the link, and the link is no agreement event.</li>
 *   <li>ENDED is final, and an end applies whatever its time: nothing after an end brings a subscription back (a new
 *       purchase is a new registration), so an end delivered late still ends it. It ended at the earliest end AWS
 *       reports (the agreement's end, then its licence's deprovisioning): an end older than {@code ended_at} moves
 *       it, and {@code state_event_at}, back to it. An agreement ended by its renewal or replacement is
 *       {@code SUPERSEDED}, not ended: the buyer still buys.</li>
 *   <li>{@code SUBSCRIBE_FAILED} ends only a subscription that never became active (AWS sends it instead of
 *       subscribe-success, never after it).</li>
 *   <li>{@code ENTITLEMENT_CHANGED} changes no state; it has the entitlement read again.</li>
 * </ul>
 */
final class SubscriptionLifecycle {

    private SubscriptionLifecycle() {
    }

    /** Where a subscription stands: its state since {@code stateEventAt}. */
    record Standing(SubscriptionState state, Instant stateEventAt) {
    }

    /** Where the event moves the subscription to, or empty when it changes nothing. */
    static Optional<Standing> apply(Standing current, Kind kind, Instant occurredAt) {
        SubscriptionState state = current.state();
        if (state == SubscriptionState.ENDED) {
            boolean earlierEnd = kind == Kind.ENDED && occurredAt.isBefore(current.stateEventAt());
            return earlierEnd ? Optional.of(new Standing(state, occurredAt)) : Optional.empty();
        }
        SubscriptionState target = switch (kind) {
            case PURCHASED -> SubscriptionState.ACTIVE;
            case AMENDED -> SubscriptionState.AMENDED;
            case CANCELLING -> SubscriptionState.CANCELLING;
            case ENDED -> SubscriptionState.ENDED;
            case SUBSCRIBE_FAILED -> state == SubscriptionState.PENDING ? SubscriptionState.ENDED : null;
            case SUPERSEDED, ENTITLEMENT_CHANGED -> null;
        };
        if (target == null) {
            return Optional.empty();
        }
        boolean newer = occurredAt.isAfter(current.stateEventAt())
                || occurredAt.equals(current.stateEventAt()) && target.compareTo(state) > 0;
        boolean applies = state == SubscriptionState.PENDING || target == SubscriptionState.ENDED || newer;
        return applies ? Optional.of(new Standing(target, occurredAt)) : Optional.empty();
    }
}
