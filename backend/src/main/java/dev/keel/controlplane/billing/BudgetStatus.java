package dev.keel.controlplane.billing;

import java.time.Instant;

/**
 * The answer of {@code /billing/budget}: the guardrails, this month's use against the monthly budget, and, for an
 * organization without a subscription, the trial's limits and what it has used of them.
 *
 * @param budgetUsedFraction this month's AKU-hours over {@code monthlyAkuHours}, null without a monthly budget
 * @param trial              null when the organization has (or had) an AWS Marketplace subscription
 */
record BudgetStatus(Integer monthlyAkuHours, Integer maxAkuPerInstance, Integer maxAkuPerOrganization, Month month,
                    Double budgetUsedFraction, TrialStatus trial) {

    record Month(Instant from, Instant to, double akuHoursUsed) {
    }

    record TrialStatus(int akuHours, double akuHoursUsed, int maxAku) {
    }

    static BudgetStatus of(Budget budget, Allowance allowance, BillingMonth month) {
        double used = allowance.monthAkuHoursUsed();
        Double fraction = budget.monthlyAkuHours() == null ? null
                : Math.round(used / budget.monthlyAkuHours() * 10_000) / 10_000.0;
        TrialStatus trial = allowance.subscription() != null ? null
                : new TrialStatus(allowance.trial().akuHours(), allowance.trialAkuHoursUsed(), allowance.trial().maxAku());
        return new BudgetStatus(budget.monthlyAkuHours(), budget.maxAkuPerInstance(), budget.maxAkuPerOrganization(),
                new Month(month.from(), month.to(), used), fraction, trial);
    }
}
