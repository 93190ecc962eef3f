package cmd

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

// billingBudget is `keel billing budget`: the organization's spend guardrails, read by every member, set by admins.
func (a *app) billingBudget() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "budget",
		Short:   "The organization's spend guardrails, this month's use against them, and the trial",
		Example: "  keel billing budget get\n  keel billing budget set --monthly-aku-hours 10000 --max-aku-per-instance 12",
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "get",
		Short:   "Show the guardrails, this month's AKU-hours and, without a subscription, the trial's figures",
		Example: "  keel billing budget get\n  keel billing budget get -o json | jq .budgetUsedFraction",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			r, err := c.GetBillingBudgetWithResponse(cmd.Context(), nil)
			if err != nil {
				return err
			}
			return a.print(r.Body, budgetTable(r.JSON200))
		}),
	})
	cmd.AddCommand(a.billingBudgetSet())
	return cmd
}

// budgetLimits are the guardrails by flag name, in the order the API lists them.
var budgetLimits = []struct{ flag, help string }{
	{"monthly-aku-hours", "AKU-hours a calendar month (UTC) may use, as projected when capacity is asked for"},
	{"max-aku-per-instance", "the most AKU one instance may have"},
	{"max-aku-per-organization", "the most AKU the organization's instances may have together"},
}

func (a *app) billingBudgetSet() *cobra.Command {
	var key string
	values := make([]string, len(budgetLimits))
	cmd := &cobra.Command{
		Use:   "set",
		Short: "Change guardrails (admins only): each flag given sets one, 'none' removes it, the others stay",
		Example: "  keel billing budget set --monthly-aku-hours 10000\n" +
			"  keel billing budget set --max-aku-per-instance 12 --max-aku-per-organization 48\n" +
			"  keel billing budget set --monthly-aku-hours none",
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			current, err := c.GetBillingBudgetWithResponse(cmd.Context(), nil)
			if err != nil {
				return err
			}
			limits := []*int{current.JSON200.MonthlyAkuHours, current.JSON200.MaxAkuPerInstance,
				current.JSON200.MaxAkuPerOrganization}
			changed := false
			for i, limit := range budgetLimits {
				if !cmd.Flags().Changed(limit.flag) {
					continue
				}
				changed = true
				if limits[i], err = budgetLimit(limit.flag, values[i]); err != nil {
					return err
				}
			}
			if !changed {
				return usagef("give at least one of --monthly-aku-hours, --max-aku-per-instance, --max-aku-per-organization")
			}
			r, err := c.SetBillingBudgetWithResponse(cmd.Context(), &api.SetBillingBudgetParams{IdempotencyKey: client.IdempotencyKey(key)},
				api.Budget{MonthlyAkuHours: limits[0], MaxAkuPerInstance: limits[1], MaxAkuPerOrganization: limits[2]})
			if err != nil {
				return err
			}
			return a.print(r.Body, budgetTable(r.JSON200))
		}),
	}
	for i, limit := range budgetLimits {
		cmd.Flags().StringVar(&values[i], limit.flag, "", limit.help+"; 'none' for no limit")
	}
	idempotencyFlag(cmd, &key)
	return cmd
}

// budgetLimit reads a guardrail's flag: a whole number, or "none" (nil).
func budgetLimit(flag, value string) (*int, error) {
	if value == "none" {
		return nil, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 {
		return nil, usagef("--%s must be a whole number from 1, or none", flag)
	}
	return &n, nil
}

func budgetTable(b *api.BudgetStatus) func(*output.Table) {
	limit := func(v *int) string {
		if v == nil {
			return "none"
		}
		return output.Cell(*v)
	}
	return func(t *output.Table) {
		t.Row("MONTHLY AKU-HOURS", limit(b.MonthlyAkuHours))
		t.Row("MAX AKU PER INSTANCE", limit(b.MaxAkuPerInstance))
		t.Row("MAX AKU PER ORGANIZATION", limit(b.MaxAkuPerOrganization))
		used := output.Cell(b.Month.AkuHoursUsed) + " AKU-hours"
		if b.BudgetUsedFraction != nil {
			used += fmt.Sprintf(" (%.0f %% of the budget)", *b.BudgetUsedFraction*100)
		}
		t.Row("USED THIS MONTH", used)
		if b.Trial != nil {
			t.Row("TRIAL", fmt.Sprintf("%s of %d AKU-hours used, at most %d AKU at once", output.Cell(b.Trial.AkuHoursUsed),
				b.Trial.AkuHours, b.Trial.MaxAku))
		}
	}
}
