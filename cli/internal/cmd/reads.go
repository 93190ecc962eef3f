package cmd

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/internal/output"
)

// The read-only nouns: sizing, audit, billing and organizations.

func (a *app) sizingCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "sizing",
		Short:   "The sizing catalog: the AKU, FSx capacities, WAL types, compute and broker versions",
		Example: "  keel sizing catalog",
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "catalog",
		Short:   "Show the current sizing catalog",
		Example: "  keel sizing catalog\n  keel sizing catalog -o json | jq .aku",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			r, err := c.GetSizingCatalogWithResponse(cmd.Context(), nil)
			if err != nil {
				return err
			}
			cat := r.JSON200
			return a.print(r.Body, func(t *output.Table) {
				t.Row("VERSION", cat.Version)
				t.Row("AKU", fmt.Sprintf("%d-%d; 1 AKU = %s MiB/s write, %s MiB/s read, %s requests/s, %s partitions",
					cat.Aku.Min, cat.Aku.Max, output.Cell(cat.Aku.WriteMiBps), output.Cell(cat.Aku.ReadMiBps),
					output.Cell(cat.Aku.RequestsPerSecond), output.Cell(cat.Aku.Partitions)))
				t.Row("REGIONS", strings.Join(cat.Regions, ", "))
				t.Blank()
				t.Row("WAL", "ZONES", "DESCRIPTION")
				for _, w := range cat.WalTypes {
					t.Row(w.Type, strings.Trim(fmt.Sprint(w.Zones), "[]"), w.Description)
				}
				t.Blank()
				t.Row("FSX MBPS", "KAFKA WRITE MIB/S", "BENCHMARKED")
				for _, f := range cat.Fsx {
					write := "not benchmarked"
					if f.KafkaWriteMiBps != nil {
						write = output.Cell(*f.KafkaWriteMiBps)
					}
					t.Row(f.ThroughputMBps, write, f.Benchmarked)
				}
				t.Blank()
				t.Row("BROKER VERSION", "WAL TYPES", "DEFAULT")
				for _, b := range cat.BrokerVersions {
					t.Row(b.Version, strings.Trim(fmt.Sprint(b.WalTypes), "[]"), b.Default)
				}
			})
		}),
	})
	return cmd
}

func (a *app) auditCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "audit",
		Short:   "Who changed what, and when",
		Example: "  keel audit list --resource-type instance",
	}
	var resourceType, resourceID string
	var page paging
	list := &cobra.Command{
		Use:     "list",
		Short:   "List audit events, newest first",
		Example: "  keel audit list\n  keel audit list --resource-type instance --resource-id 8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			var id *uuid.UUID
			if resourceID != "" {
				parsed, err := parseID(resourceID)
				if err != nil {
					return err
				}
				id = &parsed
			}
			body, events, err := listPages(page, func(cursor *string, limit int) ([]byte, []api.AuditEvent, *string, error) {
				r, err := c.ListAuditEventsWithResponse(cmd.Context(), &api.ListAuditEventsParams{
					Limit: &limit, Cursor: cursor, ResourceType: optional(resourceType), ResourceId: id})
				if err != nil {
					return nil, nil, nil, err
				}
				return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
			})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("TIME", "ACTOR", "ACTION", "RESOURCE", "RESOURCE ID")
				for _, e := range events {
					t.Row(e.OccurredAt, e.Actor.Username, e.Action, e.ResourceType, e.ResourceId)
				}
			})
		}),
	}
	list.Flags().StringVar(&resourceType, "resource-type", "", "only events about this type: organization, cloud-account, instance, operation")
	list.Flags().StringVar(&resourceID, "resource-id", "", "only events about the resource with this id")
	page.register(list)
	cmd.AddCommand(list)
	return cmd
}

func (a *app) billingCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "billing",
		Short:   "Metered usage, in AKU-hours, and the budget",
		Example: "  keel billing usage\n  keel billing budget get",
	}
	var from, to string
	usage := &cobra.Command{
		Use:     "usage",
		Short:   "Show the organization's AKU-hours per instance (default: this month until now)",
		Example: "  keel billing usage\n  keel billing usage --from 2026-10-01T00:00:00Z --to 2026-11-01T00:00:00Z",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			params := &api.GetBillingUsageParams{}
			var err error
			if params.From, err = timeFlag("from", from); err != nil {
				return err
			}
			if params.To, err = timeFlag("to", to); err != nil {
				return err
			}
			r, err := c.GetBillingUsageWithResponse(cmd.Context(), params)
			if err != nil {
				return err
			}
			u := r.JSON200
			return a.print(r.Body, func(t *output.Table) {
				t.Row("INSTANCE", "AKU-HOURS", "PERIODS", "ID")
				for _, i := range u.Instances {
					t.Row(i.Name, i.AkuHours, len(i.Periods), i.InstanceId)
				}
				t.Blank()
				t.Row(fmt.Sprintf("%s AKU-hours from %s to %s", output.Cell(u.AkuHours), output.Cell(u.From), output.Cell(u.To)))
			})
		}),
	}
	usage.Flags().StringVar(&from, "from", "", "start of the window, RFC 3339 (default: the first day of --to's month)")
	usage.Flags().StringVar(&to, "to", "", "end of the window, RFC 3339 (default: now)")
	cmd.AddCommand(usage, a.billingBudget())
	return cmd
}

func (a *app) organizationsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "organizations",
		Aliases: []string{"organization", "orgs"},
		Short:   "Your organizations and your role in them",
		Example: "  keel organizations me",
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "me",
		Short:   "Show the organization you act in, your role, and all your memberships",
		Example: "  keel organizations me\n  keel organizations me --org globex",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			r, err := c.GetCurrentOrganizationWithResponse(cmd.Context(), nil)
			if err != nil {
				return err
			}
			o := r.JSON200
			return a.print(r.Body, func(t *output.Table) {
				t.Row("ORGANIZATION", o.Slug)
				t.Row("NAME", o.Name)
				t.Row("ROLE", o.Role)
				t.Row("USER", o.User.Username)
				t.Row("EXTERNAL ID", o.ExternalId)
				memberships := make([]string, len(o.Memberships))
				for i, m := range o.Memberships {
					memberships[i] = m.Slug + ":" + string(m.Role)
				}
				t.Row("MEMBERSHIPS", strings.Join(memberships, ", "))
			})
		}),
	})
	return cmd
}
