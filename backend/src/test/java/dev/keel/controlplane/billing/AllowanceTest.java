package dev.keel.controlplane.billing;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.billing.Allowance.Subscription;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AllowanceTest {

    private static final Trial TRIAL = new Trial(360, 12);
    private static final Subscription PAY_AS_YOU_GO = new Subscription("ACTIVE", null);

    @Test
    void onlyGrowthIsJudged() {
        Allowance ended = allowance(new Subscription("ENDED", 3), Budget.NONE, 0, 9, 9);
        assertThat(ended.refusal("aku", 6)).as("a scale-down").isEmpty();
        assertThat(ended.refusal("aku", 9)).as("what runs").isEmpty();
        assertThat(type(ended.refusal("aku", 12))).isEqualTo(ProblemType.SUBSCRIPTION_ENDED);
    }

    @Test
    void anEndingSubscriptionAllowsNoNewInstanceWhateverItsEntitlement() {
        Allowance cancelling = allowance(new Subscription("CANCELLING", null), Budget.NONE, 0, 0, 0);
        ApiException refusal = cancelling.refusal("aku", 3).orElseThrow();
        assertThat(refusal.type()).isEqualTo(ProblemType.SUBSCRIPTION_ENDED);
        assertThat(refusal.errors().getFirst().field()).isEqualTo("aku");
        assertThat(refusal.getMessage()).contains("CANCELLING", "3 AKU asked");
    }

    @Test
    void theEntitlementCapsTheOrganizationsTotalCountingTheChangeAsked() {
        Allowance scaling = allowance(new Subscription("AMENDED", 12), Budget.NONE, 0, 6, 3);
        assertThat(scaling.refusal("aku", 6)).as("6 + 6 fits 12 exactly").isEmpty();
        ApiException refusal = scaling.refusal("aku", 9).orElseThrow();
        assertThat(refusal.type()).isEqualTo(ProblemType.ENTITLEMENT_EXCEEDED);
        assertThat(refusal.getMessage()).contains("allows 12 AKU", "9 AKU were asked", "would make 15",
                "at most 6 AKU here");
        assertThat(allowance(PAY_AS_YOU_GO, Budget.NONE, 0, 400, 0).refusal("aku", 500))
                .as("pay-as-you-go has no limit").isEmpty();
        assertThat(allowance(PAY_AS_YOU_GO, Budget.NONE, 1e9, 0, 0).refusal("aku", 3))
                .as("a subscribed organization has no trial").isEmpty();
    }

    @Test
    void withoutASubscriptionTheTrialBoundsHoursAndSize() {
        assertThat(allowance(null, Budget.NONE, 359.9, 6, 0).refusal("aku", 6)).isEmpty();
        ApiException usedUp = allowance(null, Budget.NONE, 360, 0, 0).refusal("aku", 3).orElseThrow();
        assertThat(usedUp.type()).isEqualTo(ProblemType.TRIAL_LIMIT_EXCEEDED);
        assertThat(usedUp.getMessage()).contains("360 AKU-hours are used up", "Subscribe to Keel on AWS Marketplace");
        ApiException tooBig = allowance(null, Budget.NONE, 0, 9, 0).refusal("aku", 6).orElseThrow();
        assertThat(tooBig.type()).isEqualTo(ProblemType.TRIAL_LIMIT_EXCEEDED);
        assertThat(tooBig.getMessage()).contains("at most 12 AKU", "would make 15", "at most 3 AKU here",
                "Subscribe");
    }

    @Test
    void eachGuardrailIsNamedWithItsValueAndTheAmountAsked() {
        ApiException perInstance = allowance(PAY_AS_YOU_GO, new Budget(null, 6, null), 0, 0, 0)
                .refusal("aku", 9).orElseThrow();
        assertThat(perInstance.type()).isEqualTo(ProblemType.BUDGET_EXCEEDED);
        assertThat(perInstance.getMessage()).contains("maxAkuPerInstance", "at most 6 AKU per instance", "9 AKU");

        Budget perOrganization = new Budget(null, null, 12);
        assertThat(allowance(PAY_AS_YOU_GO, perOrganization, 0, 6, 0).refusal("aku", 6)).isEmpty();
        ApiException organization = allowance(PAY_AS_YOU_GO, perOrganization, 0, 9, 0).refusal("aku", 6).orElseThrow();
        assertThat(organization.getMessage()).contains("maxAkuPerOrganization", "12 AKU", "6 AKU were asked",
                "would make 15");
    }

    @Test
    void theMonthlyBudgetJudgesTheMonthsProjection() {
        // 1,000 used; 100 hours left: 3 AKU here and 6 elsewhere make 1,000 + 9 × 100 = 1,900.
        Budget budget = new Budget(1_900, null, null);
        assertThat(monthly(budget, 1_000, 100, 6).refusal("aku", 3)).isEmpty();
        ApiException refusal = monthly(budget, 1_000, 100, 6).refusal("aku", 4).orElseThrow();
        assertThat(refusal.type()).isEqualTo(ProblemType.BUDGET_EXCEEDED);
        assertThat(refusal.getMessage()).contains("monthlyAkuHours", "1900 AKU-hours", "1000.0 AKU-hours are used",
                "100.0 hours left", "would make 2000.0");
        assertThat(monthly(budget, 1_901, 100, 0).refusal("aku", 3)).as("already past it").isPresent();
    }

    @Test
    void aBudgetIsValidatedFieldByField() {
        assertThat(new Budget(null, null, null).validated()).isEqualTo(Budget.NONE);
        assertThat(new Budget(1, 12, 12).validated()).isEqualTo(new Budget(1, 12, 12));
        assertThatThrownBy(() -> new Budget(0, 12, 6).validated()).isInstanceOfSatisfying(ApiException.class, e ->
                assertThat(e.errors()).extracting(f -> f.field())
                        .containsExactly("monthlyAkuHours", "maxAkuPerOrganization"));
        assertThatThrownBy(() -> new Budget(null, 100_001, null).validated()).isInstanceOf(ApiException.class);
    }

    private static Allowance allowance(Subscription subscription, Budget budget, double trialUsed, int others,
                                       int current) {
        return new Allowance(subscription, budget, TRIAL, trialUsed, 0, 0, others, current);
    }

    private static Allowance monthly(Budget budget, double monthUsed, double hoursLeft, int others) {
        return new Allowance(PAY_AS_YOU_GO, budget, TRIAL, 0, monthUsed, hoursLeft, others, 0);
    }

    private static ProblemType type(Optional<ApiException> refusal) {
        return refusal.orElseThrow().type();
    }
}
