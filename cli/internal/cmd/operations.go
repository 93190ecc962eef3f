package cmd

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

// waiting is how a command that starts an operation treats it: --wait, --timeout.
type waiting struct {
	wait    bool
	timeout time.Duration
}

func (w *waiting) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&w.wait, "wait", false, "wait until the operation finishes, showing its steps")
	cmd.Flags().DurationVar(&w.timeout, "timeout", 30*time.Minute, "how long --wait waits")
}

// started prints an operation the API has just accepted (202), or with --wait the operation once it has
// finished. Without --wait, the operation goes on and 'keel operations wait' picks it up.
func (a *app) started(ctx context.Context, c *api.ClientWithResponses, body []byte, op *api.Operation, w waiting) error {
	if !w.wait {
		if a.interactive() {
			fmt.Fprintf(a.errOut, "Operation %s (%s) is %s; follow it with: keel operations wait %s\n", op.Id, op.Type, op.State, op.Id)
		}
		return a.print(body, operationDetail(op))
	}
	return a.wait(ctx, c, op.Id, w.timeout)
}

// wait follows an operation with a progress line on stderr and prints it once it has finished.
func (a *app) wait(ctx context.Context, c *api.ClientWithResponses, id uuid.UUID, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p := progress{a: a}
	last, err := client.WaitOperation(ctx, c, id, p.show)
	p.done()
	if last != nil {
		if perr := a.print(last.Body, operationDetail(last.JSON200)); perr != nil {
			return perr
		}
	}
	return err
}

// progress writes one line per change of an operation's state: rewritten in place on a terminal.
type progress struct {
	a    *app
	last string
}

func (p *progress) show(op api.Operation) {
	line := fmt.Sprintf("%s %s: %s", op.Type, shortID(op.Id), op.State)
	if op.State == api.OperationStateRUNNING || op.State == api.OperationStatePENDING {
		line += fmt.Sprintf(" [%d/%d]", op.Progress.CompletedSteps, op.Progress.TotalSteps)
		if step := currentStep(op); step != nil {
			line += " " + step.Name
			if step.Attempts > 1 {
				line += fmt.Sprintf(" (attempt %d)", step.Attempts)
			}
		}
	}
	if line == p.last {
		return
	}
	p.last = line
	if isTerminal(p.a.errOut) {
		fmt.Fprintf(p.a.errOut, "\r\033[K%s", line)
	} else {
		fmt.Fprintln(p.a.errOut, line)
	}
}

func (p *progress) done() {
	if p.last != "" && isTerminal(p.a.errOut) {
		fmt.Fprintln(p.a.errOut)
	}
}

func currentStep(op api.Operation) *api.OperationStep {
	for i := range op.Steps {
		if op.Steps[i].State == api.StepStateRUNNING || op.Steps[i].State == api.StepStatePENDING {
			return &op.Steps[i]
		}
	}
	return nil
}

func shortID(id uuid.UUID) string {
	return id.String()[:8]
}

func (a *app) operationsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "operations",
		Aliases: []string{"operation", "ops"},
		Short:   "Long-running changes to instances: create, update, delete, repair",
		Example: "  keel operations list --instance orders\n  keel operations wait 3f6c1d9e-…",
	}
	cmd.AddCommand(a.operationsList(), a.operationsGet(), a.operationsWait(), a.operationsCancel())
	return cmd
}

func (a *app) operationsList() *cobra.Command {
	var instance string
	var page paging
	cmd := &cobra.Command{
		Use:     "list --instance NAME|ID",
		Short:   "List an instance's operations, newest first",
		Example: "  keel operations list --instance orders\n  keel operations list --instance orders -o json | jq '.items[0].state'",
		Args:    cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			if instance == "" {
				return usagef("--instance is required")
			}
			inst, err := a.instance(cmd.Context(), c, instance)
			if err != nil {
				return err
			}
			body, ops, err := listPages(page, func(cursor *string, limit int) ([]byte, []api.Operation, *string, error) {
				r, err := c.ListInstanceOperationsWithResponse(cmd.Context(), inst.JSON200.Id,
					&api.ListInstanceOperationsParams{Limit: &limit, Cursor: cursor})
				if err != nil {
					return nil, nil, nil, err
				}
				return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
			})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("ID", "TYPE", "STATE", "PROGRESS", "REQUESTED BY", "CREATED")
				for _, op := range ops {
					t.Row(op.Id, op.Type, op.State, fmt.Sprintf("%d/%d", op.Progress.CompletedSteps, op.Progress.TotalSteps),
						op.RequestedBy, op.CreatedAt)
				}
			})
		}),
	}
	cmd.Flags().StringVar(&instance, "instance", "", "the instance (name or id)")
	page.register(cmd)
	return cmd
}

func (a *app) operationsGet() *cobra.Command {
	return &cobra.Command{
		Use:     "get ID",
		Short:   "Show an operation and its steps",
		Example: "  keel operations get 3f6c1d9e-2b4a-4c1e-9d7f-0a1b2c3d4e5f",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			r, err := c.GetOperationWithResponse(cmd.Context(), id, nil)
			if err != nil {
				return err
			}
			return a.print(r.Body, operationDetail(r.JSON200))
		}),
	}
}

func (a *app) operationsWait() *cobra.Command {
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "wait ID",
		Short: "Wait until an operation finishes",
		Long: `Waits until the operation is SUCCEEDED (exit 0), FAILED or CANCELLED (exit 5, with the failing
step's message), or --timeout passes (exit 4; the operation goes on).`,
		Example: "  keel operations wait 3f6c1d9e-2b4a-4c1e-9d7f-0a1b2c3d4e5f --timeout 10m",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			return a.wait(cmd.Context(), c, id, timeout)
		}),
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 30*time.Minute, "how long to wait")
	return cmd
}

func (a *app) operationsCancel() *cobra.Command {
	var key string
	cmd := &cobra.Command{
		Use:     "cancel ID",
		Short:   "Cancel an operation that has not started (PENDING)",
		Example: "  keel operations cancel 3f6c1d9e-2b4a-4c1e-9d7f-0a1b2c3d4e5f",
		Args:    cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			id, err := parseID(args[0])
			if err != nil {
				return err
			}
			r, err := c.CancelOperationWithResponse(cmd.Context(), id,
				&api.CancelOperationParams{IdempotencyKey: client.IdempotencyKey(key)})
			if err != nil {
				return err
			}
			return a.print(r.Body, operationDetail(r.JSON200))
		}),
	}
	idempotencyFlag(cmd, &key)
	return cmd
}

func operationDetail(op *api.Operation) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("ID", op.Id)
		t.Row("INSTANCE", op.InstanceId)
		t.Row("TYPE", op.Type)
		t.Row("STATE", op.State)
		t.Row("PROGRESS", fmt.Sprintf("%d/%d", op.Progress.CompletedSteps, op.Progress.TotalSteps))
		t.Row("REQUESTED BY", op.RequestedBy)
		t.Row("REASON", op.Reason)
		t.Row("CREATED", op.CreatedAt)
		t.Row("FINISHED", op.FinishedAt)
		if op.Error != nil {
			t.Row("ERROR", op.Error.Code+": "+op.Error.Message)
		}
		t.Blank()
		t.Row("STEP", "STATE", "ATTEMPTS", "MESSAGE")
		for _, s := range op.Steps {
			t.Row(s.Name, s.State, s.Attempts, oneLine(s.Message))
		}
	}
}

func oneLine(s *string) string {
	if s == nil {
		return ""
	}
	return strings.ReplaceAll(*s, "\n", " ")
}

func parseID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil {
		return id, usagef("%q is not an id (a UUID)", s)
	}
	return id, nil
}

func idempotencyFlag(cmd *cobra.Command, key *string) {
	cmd.Flags().StringVar(key, "idempotency-key", "", "the Idempotency-Key to send (default: a new UUID)")
}
