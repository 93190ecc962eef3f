package dev.keel.controlplane.billing;

import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Each organization's guardrails; an organization that never set any has {@link Budget#NONE}. */
@Repository
class Budgets {

    private final JdbcClient jdbc;

    Budgets(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Budget of(UUID organizationId) {
        return jdbc.sql("""
                        SELECT monthly_aku_hours, max_aku_per_instance, max_aku_per_organization
                        FROM billing_budgets WHERE organization_id = ?
                        """)
                .param(organizationId)
                .query((rs, n) -> new Budget(rs.getObject("monthly_aku_hours", Integer.class),
                        rs.getObject("max_aku_per_instance", Integer.class),
                        rs.getObject("max_aku_per_organization", Integer.class)))
                .optional().orElse(Budget.NONE);
    }

    void put(UUID organizationId, Budget budget) {
        jdbc.sql("""
                        INSERT INTO billing_budgets (organization_id, monthly_aku_hours, max_aku_per_instance,
                                                     max_aku_per_organization)
                        VALUES (?, ?, ?, ?)
                        ON CONFLICT (organization_id) DO UPDATE SET monthly_aku_hours = excluded.monthly_aku_hours,
                            max_aku_per_instance = excluded.max_aku_per_instance,
                            max_aku_per_organization = excluded.max_aku_per_organization, updated_at = now()
                        """)
                .params(organizationId, budget.monthlyAkuHours(), budget.maxAkuPerInstance(),
                        budget.maxAkuPerOrganization())
                .update();
    }
}
