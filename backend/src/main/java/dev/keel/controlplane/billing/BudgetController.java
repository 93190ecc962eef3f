package dev.keel.controlplane.billing;

import java.time.Clock;

import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.identity.Role;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;

/** The organization's spend guardrails: every member reads them with this month's use; admins set them. */
@RestController
class BudgetController {

    private final Budgets budgets;
    private final CapacityLimits limits;
    private final AuditLog audit;
    private final TransactionTemplate transactions;
    private final Clock clock;

    BudgetController(Budgets budgets, CapacityLimits limits, AuditLog audit, TransactionTemplate transactions,
                     Clock clock) {
        this.budgets = budgets;
        this.limits = limits;
        this.audit = audit;
        this.transactions = transactions;
        this.clock = clock;
    }

    @GetMapping("/api/v1/billing/budget")
    BudgetStatus get(Caller caller) {
        return status(caller, budgets.of(caller.organizationId()));
    }

    /** Replaces every guardrail: a limit left out is none. Audited only when it changes something. */
    @PutMapping("/api/v1/billing/budget")
    BudgetStatus put(Caller caller, @RequestBody Budget budget) {
        if (caller.role() != Role.ADMIN) {
            throw ApiException.of(ProblemType.FORBIDDEN, "Only an admin of " + caller.organizationSlug()
                    + " sets its budget; you are " + caller.role().wireName() + ".");
        }
        Budget set = budget.validated();
        transactions.executeWithoutResult(tx -> {
            Budget before = budgets.of(caller.organizationId());
            if (!before.equals(set)) {
                budgets.put(caller.organizationId(), set);
                audit.record(caller, "budget.update", "budget", caller.organizationId(), before, set);
            }
        });
        return status(caller, set);
    }

    private BudgetStatus status(Caller caller, Budget budget) {
        return BudgetStatus.of(budget, limits.allowance(caller.organizationId(), null), BillingMonth.of(clock.instant()));
    }
}
