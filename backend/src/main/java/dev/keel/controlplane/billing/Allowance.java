package dev.keel.controlplane.billing;

import java.util.Locale;
import java.util.Optional;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

/**
 * What an organization may still run, from the figures read when capacity is asked for: its subscription (or the
 * trial), its guardrails, its usage, and the AKU of its instances that are not deleted other than the one asked for.
 * Only growth is judged: a scale-down, a delete, or keeping what runs is always allowed.
 *
 * @param subscription  null: no subscription, the trial applies
 * @param othersAku     the AKU of the organization's other instances that are not deleted
 * @param currentAku    the AKU the instance asked for has now (0 for a create)
 */
record Allowance(Subscription subscription, Budget budget, Trial trial, double trialAkuHoursUsed,
                 double monthAkuHoursUsed, double hoursLeftInMonth, int othersAku, int currentAku) {

    /** The organization's current subscription: its agreement's state and the AKU its licence allows (null: no limit). */
    record Subscription(String state, Integer entitledAku) {

        boolean ending() {
            return state.equals("CANCELLING") || state.equals("ENDED");
        }
    }

    /** Why running {@code askedAku} on the instance is refused, on {@code field}; empty when it is allowed. */
    Optional<ApiException> refusal(String field, int askedAku) {
        if (askedAku <= currentAku) {
            return Optional.empty();
        }
        int total = othersAku + askedAku;
        String making = othersAku == 0 ? "" : "; its other instances have " + othersAku + " AKU, so " + askedAku
                + " AKU here would make " + total;
        if (subscription != null && subscription.ending()) {
            return refuse(ProblemType.SUBSCRIPTION_ENDED, field, "The organization's AWS Marketplace subscription is "
                    + subscription.state() + ": no new instance and no scale-up (" + askedAku + " AKU asked). Running "
                    + "instances keep running, and can be scaled down or deleted. Renew the subscription on AWS "
                    + "Marketplace to grow again.");
        }
        if (subscription != null && subscription.entitledAku() != null && total > subscription.entitledAku()) {
            return refuse(ProblemType.ENTITLEMENT_EXCEEDED, field, "The subscription's contract allows "
                    + subscription.entitledAku() + " AKU at once across the organization, and " + askedAku + " AKU were "
                    + "asked" + making + ". " + room(subscription.entitledAku()) + "or raise the contract's aku "
                    + "entitlement on AWS Marketplace.");
        }
        if (subscription == null && trialAkuHoursUsed >= trial.akuHours()) {
            return refuse(ProblemType.TRIAL_LIMIT_EXCEEDED, field, "The trial's " + trial.akuHours() + " AKU-hours are "
                    + "used up (" + hours(trialAkuHoursUsed) + " used), so " + askedAku + " AKU cannot be added. "
                    + SUBSCRIBE);
        }
        if (subscription == null && total > trial.maxAku()) {
            return refuse(ProblemType.TRIAL_LIMIT_EXCEEDED, field, "The trial runs at most " + trial.maxAku()
                    + " AKU at once across the organization, and " + askedAku + " AKU were asked" + making + ". "
                    + room(trial.maxAku()) + "or: " + SUBSCRIBE);
        }
        return budgetRefusal(field, askedAku, total, making);
    }

    private Optional<ApiException> budgetRefusal(String field, int askedAku, int total, String making) {
        if (budget.maxAkuPerInstance() != null && askedAku > budget.maxAkuPerInstance()) {
            return refuse(ProblemType.BUDGET_EXCEEDED, field, "The organization's budget allows at most "
                    + budget.maxAkuPerInstance() + " AKU per instance (maxAkuPerInstance), and " + askedAku
                    + " AKU were asked. " + RAISE);
        }
        if (budget.maxAkuPerOrganization() != null && total > budget.maxAkuPerOrganization()) {
            return refuse(ProblemType.BUDGET_EXCEEDED, field, "The organization's budget allows at most "
                    + budget.maxAkuPerOrganization() + " AKU across its instances (maxAkuPerOrganization), and "
                    + askedAku + " AKU were asked" + making + ". " + RAISE);
        }
        double projected = monthAkuHoursUsed + total * hoursLeftInMonth;
        if (budget.monthlyAkuHours() != null && projected > budget.monthlyAkuHours()) {
            return refuse(ProblemType.BUDGET_EXCEEDED, field, "The organization's monthly budget is "
                    + budget.monthlyAkuHours() + " AKU-hours (monthlyAkuHours), and " + askedAku + " AKU were asked: "
                    + hours(monthAkuHoursUsed) + " AKU-hours are used this month, and " + total + " AKU (this instance's "
                    + askedAku + " and the other instances' " + othersAku + ") for the " + hours(hoursLeftInMonth)
                    + " hours left in it would make " + hours(projected) + ". " + RAISE);
        }
        return Optional.empty();
    }

    private static final String SUBSCRIBE = "Subscribe to Keel on AWS Marketplace and link the subscription to this "
            + "organization (its registration page opens from the listing) to run more.";
    private static final String RAISE = "An admin can raise it with PUT /billing/budget (the Billing page's Budget).";

    /** How much more the instance may be given within {@code limit}, as advice. */
    private String room(int limit) {
        int most = limit - othersAku;
        return most > currentAku ? "Ask for at most " + most + " AKU here, " : "Scale another instance down, ";
    }

    private static String hours(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    private static Optional<ApiException> refuse(ProblemType type, String field, String detail) {
        return Optional.of(ApiException.of(type, field, detail));
    }
}
