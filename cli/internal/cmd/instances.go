package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

func (a *app) instancesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "instances",
		Aliases: []string{"instance", "inst"},
		Short:   "Diskless Kafka instances in your AWS accounts",
		Example: "  keel instances list\n  keel instances get orders -o yaml",
	}
	cmd.AddCommand(a.instancesList(), a.instancesGet(), a.instancesCreate(), a.instancesUpdate(), a.instancesDelete(),
		a.instancesPlan(), a.instancesRepair(), a.instancesMetrics(), a.instancesCost(), a.instancesCACertificate())
	return cmd
}

// instance finds an instance by id or by exact name (deleted ones only by id).
func (a *app) instance(ctx context.Context, c *api.ClientWithResponses, ref string) (*api.GetInstanceResponse, error) {
	id, err := uuid.Parse(ref)
	if err != nil {
		name := ref
		r, err := c.ListInstancesWithResponse(ctx, &api.ListInstancesParams{Name: &name, Limit: ptr(100)})
		if err != nil {
			return nil, err
		}
		found := false
		for _, inst := range r.JSON200.Items {
			if inst.Name == name {
				id, found = inst.Id, true
				break
			}
		}
		if !found {
			return nil, notFound("instance", ref, "keel instances list")
		}
	}
	return c.GetInstanceWithResponse(ctx, id, nil)
}

// notFound is the answer to a name that matches nothing, shaped like the API's own 404.
func notFound(kind, ref, list string) error {
	detail := fmt.Sprintf("No %s named %s; '%s' shows them.", kind, ref, list)
	return &client.Problem{Problem: api.Problem{Type: client.ProblemTypePrefix + "not-found", Title: "Not found", Status: 404, Detail: &detail}}
}

func (a *app) instancesList() *cobra.Command {
	var state, name string
	var page paging
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List instances, newest first (deleted ones only with --state DELETED)",
		Example: `  keel instances list
  keel instances list --state RUNNING --name orders
  keel instances list -o json | jq -r '.items[].name'`,
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			body, items, err := listPages(page, func(cursor *string, limit int) ([]byte, []api.Instance, *string, error) {
				params := &api.ListInstancesParams{Limit: &limit, Cursor: cursor, Name: optional(name)}
				if state != "" {
					s := api.InstanceState(strings.ToUpper(state))
					params.State = &s
				}
				r, err := c.ListInstancesWithResponse(cmd.Context(), params)
				if err != nil {
					return nil, nil, nil, err
				}
				return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
			})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("NAME", "STATE", "WAL", "AKU", "ZONES", "REGION", "ID", "CREATED")
				for _, i := range items {
					t.Row(i.Name, i.State, i.Spec.Wal.Type, i.Spec.Aku, len(i.Spec.Network.Subnets), i.Region, i.Id, i.CreatedAt)
				}
			})
		}),
	}
	cmd.Flags().StringVar(&state, "state", "", "only instances in this state (CREATING, RUNNING, CHANGING, DELETING, DELETED, FAILED)")
	cmd.Flags().StringVar(&name, "name", "", "only instances whose name contains this text")
	page.register(cmd)
	return cmd
}

func (a *app) instancesGet() *cobra.Command {
	return &cobra.Command{
		Use:     "get NAME|ID",
		Short:   "Show an instance: spec, capacity, brokers, bootstrap servers and conditions",
		Example: "  keel instances get orders\n  keel instances get orders -o json | jq -r .inventory.bootstrapServers",
		Args:    cobra.ExactArgs(1),
		RunE: a.withInstance(func(_ *cobra.Command, _ *api.ClientWithResponses, inst *api.GetInstanceResponse) error {
			return a.print(inst.Body, instanceDetail(inst.JSON200))
		}),
	}
}

func instanceDetail(i *api.Instance) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("NAME", i.Name)
		t.Row("ID", i.Id)
		t.Row("STATE", i.State)
		t.Row("REGION", i.Region)
		t.Row("CLOUD ACCOUNT", i.CloudAccountId)
		t.Row("WAL", i.Spec.Wal.Type)
		t.Row("AKU", i.Spec.Aku)
		if i.Spec.Fsx != nil {
			t.Row("FSX", fmt.Sprintf("%d × %d MBps", i.Spec.Fsx.Count, i.Spec.Fsx.ThroughputMBps))
		}
		t.Row("VPC", i.Spec.Network.VpcId)
		if i.Spec.Network.S3GatewayEndpoint != nil {
			t.Row("S3 GATEWAY ENDPOINT", *i.Spec.Network.S3GatewayEndpoint)
		}
		for _, s := range i.Spec.Network.Subnets {
			t.Row("SUBNET", s.AvailabilityZone+" "+s.SubnetId)
		}
		t.Row("BROKER VERSION", i.Spec.BrokerVersion)
		t.Row("SPEC VERSION", i.SpecVersion)
		t.Row("CAPACITY", fmt.Sprintf("%s MiB/s write, %s MiB/s read, %s requests/s, %s partitions",
			output.Cell(i.Capacity.WriteMiBps), output.Cell(i.Capacity.ReadMiBps),
			output.Cell(i.Capacity.RequestsPerSecond), output.Cell(i.Capacity.Partitions)))
		t.Row("BROKERS", fmt.Sprintf("%d × %s", i.Sizing.BrokerCount, i.Sizing.InstanceType))
		t.Row("BOOTSTRAP", i.Inventory.BootstrapServers)
		t.Row("SECURITY PROTOCOL", i.Connection.SecurityProtocol)
		if i.Connection.SaslMechanism != nil {
			t.Row("SASL MECHANISM", *i.Connection.SaslMechanism)
		}
		if i.Connection.CaCertificateUrl != nil {
			t.Row("CA CERTIFICATE", "keel instances ca-certificate "+i.Name)
		}
		t.Row("DELETION PROTECTION", onOff(i.DeletionProtection))
		if i.DataRetainedUntil != nil {
			t.Row("DATA KEPT UNTIL", i.DataRetainedUntil)
		}
		t.Row("CREATED", i.CreatedAt)
		t.Row("UPDATED", i.UpdatedAt)
		t.Blank()
		t.Row("CONDITION", "STATUS", "REASON", "MESSAGE")
		for _, c := range i.Conditions {
			t.Row(c.Type, c.Status, c.Reason, c.Message)
		}
		if len(i.Inventory.Brokers) > 0 {
			t.Blank()
			t.Row("BROKER", "ZONE", "ADDRESS", "HEALTH")
			for _, b := range i.Inventory.Brokers {
				t.Row(b.NodeId, b.AvailabilityZone, b.Address, b.Health.Status)
			}
		}
	}
}

// s3GatewayEndpointMode is the API's value of --s3-gateway-endpoint (require-existing is REQUIRE_EXISTING).
func s3GatewayEndpointMode(flag string) (api.S3GatewayEndpointMode, error) {
	return enumFlag[api.S3GatewayEndpointMode]("s3-gateway-endpoint", flag, "create, require-existing or none")
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// creation is the flags of create and plan that set fields of an InstanceCreation.
type creation struct {
	file, name, cloudAccount, region, vpc, wal, brokerVersion string
	s3GatewayEndpoint                                         string
	subnets                                                   []string
	aku, fsxThroughput, fsxCount                              int
	deletionProtection                                        bool
}

func (f *creation) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVarP(&f.file, "file", "f", "", "an InstanceCreation document, YAML or JSON (- for stdin); flags override its fields")
	fl.StringVar(&f.name, "name", "", "the instance's name")
	fl.StringVar(&f.cloudAccount, "cloud-account", "", "the cloud account (name or id)")
	fl.StringVar(&f.region, "region", "", "the AWS region")
	fl.StringVar(&f.vpc, "vpc", "", "the VPC id")
	fl.StringSliceVar(&f.subnets, "subnet", nil, "a subnet per zone as ZONE=SUBNET-ID (1 or 3, repeat or comma-separate)")
	fl.StringVar(&f.wal, "wal", "", "the WAL type: EBS, S3 or FSWAL")
	fl.IntVar(&f.aku, "aku", 0, "capacity in AKU")
	fl.IntVar(&f.fsxThroughput, "fsx-throughput", 0, "FSx throughput per file system in MBps (FSWAL)")
	fl.IntVar(&f.fsxCount, "fsx-count", 0, "number of FSx file systems (FSWAL)")
	fl.StringVar(&f.brokerVersion, "broker-version", "", "the broker version (default: the catalog's newest for the WAL type)")
	fl.StringVar(&f.s3GatewayEndpoint, "s3-gateway-endpoint", "", "the VPC's S3 gateway endpoint: create (use or create one, default), require-existing or none (fixed at create)")
	fl.BoolVar(&f.deletionProtection, "deletion-protection", false, "refuse deletes until it is turned off (default off)")
}

// body is the InstanceCreation to send: the file's document with the flags given applied over it.
func (f *creation) body(ctx context.Context, a *app, c *api.ClientWithResponses, cmd *cobra.Command) ([]byte, error) {
	var account *api.GetCloudAccountResponse
	if cmd.Flags().Changed("cloud-account") {
		var err error
		if account, err = a.cloudAccount(ctx, c, f.cloudAccount); err != nil {
			return nil, err
		}
	}
	subnets, err := subnetPlacements(f.subnets)
	if err != nil {
		return nil, err
	}
	var endpoint api.S3GatewayEndpointMode
	if cmd.Flags().Changed("s3-gateway-endpoint") {
		if endpoint, err = s3GatewayEndpointMode(f.s3GatewayEndpoint); err != nil {
			return nil, err
		}
	}
	return a.requestBody(cmd, f.file, []field{
		{"name", "name", func() any { return f.name }},
		{"cloud-account", "cloudAccountId", func() any { return account.JSON200.Id }},
		{"region", "region", func() any { return f.region }},
		{"vpc", "network.vpcId", func() any { return f.vpc }},
		{"subnet", "network.subnets", func() any { return subnets }},
		{"s3-gateway-endpoint", "network.s3GatewayEndpoint", func() any { return endpoint }},
		{"wal", "wal.type", func() any { return strings.ToUpper(f.wal) }},
		{"aku", "aku", func() any { return f.aku }},
		{"fsx-throughput", "fsx.throughputMBps", func() any { return f.fsxThroughput }},
		{"fsx-count", "fsx.count", func() any { return f.fsxCount }},
		{"broker-version", "brokerVersion", func() any { return f.brokerVersion }},
		{"deletion-protection", "deletionProtection", func() any { return f.deletionProtection }},
	}, "give the spec with -f FILE or flags (--name, --cloud-account, --region, --vpc, --subnet, --wal, --aku)")
}

func (a *app) instancesCreate() *cobra.Command {
	var spec creation
	var w waiting
	var key string
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create an instance (starts a CREATE operation)",
		Long: `Creates an instance from an InstanceCreation document (-f, YAML or JSON, as the API takes it) and/or
flags. ${NAME} in the file is replaced by the environment variable NAME. Without --wait the command
prints the queued operation and returns; with --wait it shows the operation's steps and exits 0 when it
SUCCEEDED, 5 when it FAILED, 4 after --timeout.

An instance whose brokers authenticate clients (SASL_SSL, the default) is created with a Kafka user
admin whose ACLs allow everything: its password is printed once, on stderr (and in the json and yaml
documents without --wait, as adminCredentials). The operation succeeds once every broker serves clients
with the instance's credentials: with --wait, the bootstrap servers a client connects to are printed on
stderr then, and a client given them (and admin's password) connects at once.`,
		Example: `  keel instances create -f cli/examples/s3.yaml --wait
  keel instances create --name orders --cloud-account prod --region us-east-1 --vpc vpc-0a1b2c3d \
    --subnet us-east-1a=subnet-0aaa,us-east-1b=subnet-0bbb,us-east-1c=subnet-0ccc --wal S3 --aku 3
  keel instances create -f cli/examples/s3.yaml --s3-gateway-endpoint require-existing`,
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			body, err := spec.body(cmd.Context(), a, c, cmd)
			if err != nil {
				return err
			}
			r, err := c.CreateInstanceWithBodyWithResponse(cmd.Context(), &api.CreateInstanceParams{IdempotencyKey: client.IdempotencyKey(key)},
				"application/json", bytes.NewReader(body))
			if err != nil {
				return err
			}
			// The answer is the CREATE operation with, on a SASL_SSL instance, the default admin's credentials.
			var op api.Operation
			if err := json.Unmarshal(r.Body, &op); err != nil {
				return err
			}
			if admin := r.JSON202.AdminCredentials; admin != nil {
				// Before any wait, so that a wait that times out loses nothing.
				fmt.Fprintf(a.errOut, "Kafka user %s, password %s\n", admin.Username, admin.Password)
				a.passwordShownOnce(admin.Username, fmt.Sprintf("'keel users rotate-password %s --instance %s' makes a new one.", admin.Username, op.InstanceId))
			}
			if err := a.started(cmd.Context(), c, r.Body, &op, w); err != nil || !w.wait {
				return err
			}
			return a.printBootstrap(cmd.Context(), c, op.InstanceId)
		}),
	}
	spec.register(cmd)
	w.register(cmd)
	idempotencyFlag(cmd, &key)
	return cmd
}

// printBootstrap says on stderr where clients connect to the instance, once its brokers serve.
func (a *app) printBootstrap(ctx context.Context, c *api.ClientWithResponses, id uuid.UUID) error {
	r, err := a.instance(ctx, c, id.String())
	if err != nil {
		return err
	}
	if servers := r.JSON200.Inventory.BootstrapServers; servers != nil {
		fmt.Fprintf(a.errOut, "Bootstrap servers %s\n", *servers)
	}
	return nil
}

// capacityChange is the flags of update and plan that change an instance's capacity.
type capacityChange struct {
	aku, fsxThroughput, fsxCount int
}

// deletionProtection is update's flag that turns deletion protection on or off.
type deletionProtection struct {
	on bool
}

func (f *deletionProtection) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.on, "deletion-protection", false, "turn deletion protection on (=true) or off (=false)")
}

// apply sets the flag's value in patch (nil: none yet), when it was given.
func (f *deletionProtection) apply(cmd *cobra.Command, patch *api.InstanceUpdate) *api.InstanceUpdate {
	if !cmd.Flags().Changed("deletion-protection") {
		return patch
	}
	if patch == nil {
		patch = &api.InstanceUpdate{}
	}
	patch.DeletionProtection = &f.on
	return patch
}

func (f *capacityChange) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.aku, "aku", 0, "the new capacity in AKU")
	cmd.Flags().IntVar(&f.fsxThroughput, "fsx-throughput", 0, "the new FSx throughput per file system in MBps (FSWAL)")
	cmd.Flags().IntVar(&f.fsxCount, "fsx-count", 0, "the new number of FSx file systems (FSWAL)")
}

// patch is the merge patch the flags given ask for, or nil when none was given.
func (f *capacityChange) patch(cmd *cobra.Command) *api.InstanceUpdate {
	changed := cmd.Flags().Changed
	var u api.InstanceUpdate
	if changed("aku") {
		u.Aku = &f.aku
	}
	if changed("fsx-throughput") || changed("fsx-count") {
		u.Fsx = &struct {
			Count          *int               `json:"count,omitempty"`
			ThroughputMBps *api.FsxThroughput `json:"throughputMBps,omitempty"`
		}{}
		if changed("fsx-count") {
			u.Fsx.Count = &f.fsxCount
		}
		if changed("fsx-throughput") {
			t := api.FsxThroughput(f.fsxThroughput)
			u.Fsx.ThroughputMBps = &t
		}
	}
	if u.Aku == nil && u.Fsx == nil {
		return nil
	}
	return &u
}

func (a *app) instancesUpdate() *cobra.Command {
	var change capacityChange
	var protection deletionProtection
	var w waiting
	var key, ifMatch string
	cmd := &cobra.Command{
		Use:   "update NAME|ID",
		Short: "Change an instance's capacity, AKU and FSx (starts an UPDATE operation), or its deletion protection",
		Long: `Sends a merge patch of the instance's capacity with If-Match set to the ETag just read, so a change
made by someone else in between is refused (412) rather than overwritten. Changing the WAL type or the
zones needs a new instance. --deletion-protection alone changes the setting at once (no operation) and
prints the instance.`,
		Example: `  keel instances update orders --aku 6 --wait
  keel instances update orders --fsx-count 2 --if-match '"4"'
  keel instances update orders --deletion-protection=false`,
		Args: cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			patch := protection.apply(cmd, change.patch(cmd))
			if patch == nil {
				return usagef("nothing to change: give --aku, --fsx-throughput, --fsx-count or --deletion-protection")
			}
			inst, err := a.instance(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			etag := client.ETag(inst.HTTPResponse)
			if ifMatch != "" {
				etag = client.Quote(ifMatch)
			}
			r, err := c.UpdateInstanceWithApplicationMergePatchPlusJSONBodyWithResponse(cmd.Context(), inst.JSON200.Id,
				&api.UpdateInstanceParams{IfMatch: etag, IdempotencyKey: client.IdempotencyKey(key)}, *patch)
			if err != nil {
				return err
			}
			if r.JSON200 != nil {
				return a.print(r.Body, instanceDetail(r.JSON200))
			}
			return a.started(cmd.Context(), c, r.Body, r.JSON202, w)
		}),
	}
	change.register(cmd)
	protection.register(cmd)
	w.register(cmd)
	idempotencyFlag(cmd, &key)
	cmd.Flags().StringVar(&ifMatch, "if-match", "", "the spec version to change (default: the ETag just read)")
	return cmd
}

func (a *app) instancesDelete() *cobra.Command {
	var w waiting
	var key string
	var yes, purge bool
	cmd := &cobra.Command{
		Use:   "delete NAME|ID",
		Short: "Delete an instance and every cloud resource it owns (starts a DELETE operation)",
		Long: `Asks for the instance's name to be typed before deleting it, unless --yes. Without a terminal, --yes
is required. Refused while the instance's deletion protection is on. Its data bucket is kept for the
control plane's retention period (the instance's dataRetainedUntil), then deleted; --purge (admins only)
deletes it at once with everything else.`,
		Example: "  keel instances delete orders\n  keel instances delete orders --yes --wait\n  keel instances delete orders --purge",
		Args:    cobra.ExactArgs(1),
		RunE: a.withInstance(func(cmd *cobra.Command, c *api.ClientWithResponses, inst *api.GetInstanceResponse) error {
			if !yes {
				if err := a.confirm("instance", inst.JSON200.Name); err != nil {
					return err
				}
			}
			r, err := c.DeleteInstanceWithResponse(cmd.Context(), inst.JSON200.Id,
				&api.DeleteInstanceParams{IdempotencyKey: client.IdempotencyKey(key), Purge: optional(purge)})
			if err != nil {
				return err
			}
			return a.started(cmd.Context(), c, r.Body, r.JSON202, w)
		}),
	}
	w.register(cmd)
	idempotencyFlag(cmd, &key)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	cmd.Flags().BoolVar(&purge, "purge", false, "delete the data bucket at once instead of keeping it (admins only)")
	return cmd
}

// confirm asks for name to be typed; it refuses without a terminal to ask at.
func (a *app) confirm(kind, name string) error {
	return a.confirmTyped(kind, name, "name")
}

// confirmTyped asks for the object's identifier (its name, or its id when it has no name) to be typed.
func (a *app) confirmTyped(kind, identifier, label string) error {
	if !a.interactive() {
		return usagef("deleting %s %s needs --yes when no terminal can ask for confirmation", kind, identifier)
	}
	fmt.Fprintf(a.errOut, "This deletes %s %s. Type its %s to confirm: ", kind, identifier, label)
	line, _ := bufio.NewReader(a.in).ReadString('\n')
	if strings.TrimSpace(line) != identifier {
		return usagef("the %s typed does not match; %s %s was not deleted", label, kind, identifier)
	}
	return nil
}

func (a *app) instancesPlan() *cobra.Command {
	var spec creation
	var deleting, purge bool
	cmd := &cobra.Command{
		Use:   "plan [NAME|ID]",
		Short: "Show what a create, an update, a repair or a delete would change in the cloud, changing nothing",
		Long: `Without NAME: plans creating the instance given by -f and/or the create flags.
With NAME and --aku/--fsx-*: plans that capacity change. With NAME and --delete: plans deleting it,
and until when its data bucket would be kept (--purge: deleted at once). With NAME alone: plans a
repair, the difference between the spec and what exists in the cloud account now.`,
		Example: `  keel instances plan -f cli/examples/s3.yaml
  keel instances plan orders --aku 9
  keel instances plan orders --delete
  keel instances plan orders`,
		Args: cobra.MaximumNArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			var body []byte
			var plan *api.Plan
			if purge && !deleting {
				return usagef("--purge plans a delete: give --delete with it")
			}
			if len(args) == 0 {
				if deleting {
					return usagef("--delete plans deleting an instance: name it")
				}
				doc, err := spec.body(cmd.Context(), a, c, cmd)
				if err != nil {
					return err
				}
				r, err := c.PlanInstanceCreationWithBodyWithResponse(cmd.Context(), nil, "application/json", bytes.NewReader(doc))
				if err != nil {
					return err
				}
				body, plan = r.Body, r.JSON200
			} else {
				for _, flag := range []string{"file", "name", "cloud-account", "region", "vpc", "subnet", "wal", "broker-version"} {
					if cmd.Flags().Changed(flag) {
						return usagef("--%s plans a create: give no instance name with it", flag)
					}
				}
				// With a name, the create flags that also change capacity mean that change.
				change := capacityChange{aku: spec.aku, fsxThroughput: spec.fsxThroughput, fsxCount: spec.fsxCount}
				inst, err := a.instance(cmd.Context(), c, args[0])
				if err != nil {
					return err
				}
				var r *api.PlanInstanceResponse
				patch := change.patch(cmd)
				if deleting && patch != nil {
					return usagef("--delete plans a delete: give no capacity change with it")
				}
				if deleting {
					r, err = c.PlanInstanceWithBodyWithResponse(cmd.Context(), inst.JSON200.Id,
						&api.PlanInstanceParams{Delete: &deleting, Purge: optional(purge)}, "application/json", nil)
				} else if patch != nil {
					r, err = c.PlanInstanceWithResponse(cmd.Context(), inst.JSON200.Id, nil, *patch)
				} else {
					r, err = c.PlanInstanceWithBodyWithResponse(cmd.Context(), inst.JSON200.Id, nil, "application/json", nil)
				}
				if err != nil {
					return err
				}
				body, plan = r.Body, r.JSON200
			}
			return a.print(body, func(t *output.Table) {
				t.Row("ACTION", "RESOURCE", "NAME", "ID", "REASON")
				for _, ch := range plan.Changes {
					t.Row(ch.Action, ch.ResourceType, ch.Name, ch.Id, ch.Reason)
				}
				s := plan.Summary
				t.Blank()
				t.Row(fmt.Sprintf("%s plan: %d to create, %d to update, %d to replace, %d to delete", plan.Kind, s.Create, s.Update, s.Replace, s.Delete))
				if plan.DataRetainedUntil != nil {
					t.Row(fmt.Sprintf("The data bucket is kept until %s, then deleted.", plan.DataRetainedUntil.UTC().Format(time.RFC3339)))
				}
			})
		}),
	}
	spec.register(cmd)
	cmd.Flags().BoolVar(&deleting, "delete", false, "plan deleting the named instance")
	cmd.Flags().BoolVar(&purge, "purge", false, "with --delete: plan deleting its data bucket at once too")
	return cmd
}

func (a *app) instancesRepair() *cobra.Command {
	var w waiting
	var key string
	cmd := &cobra.Command{
		Use:     "repair NAME|ID",
		Short:   "Bring a running instance's cloud resources back to its spec (starts a REPAIR operation)",
		Example: "  keel instances plan orders     # what a repair would change\n  keel instances repair orders --wait",
		Args:    cobra.ExactArgs(1),
		RunE: a.withInstance(func(cmd *cobra.Command, c *api.ClientWithResponses, inst *api.GetInstanceResponse) error {
			r, err := c.RepairInstanceWithResponse(cmd.Context(), inst.JSON200.Id, &api.RepairInstanceParams{IdempotencyKey: client.IdempotencyKey(key)})
			if err != nil {
				return err
			}
			return a.started(cmd.Context(), c, r.Body, r.JSON202, w)
		}),
	}
	w.register(cmd)
	idempotencyFlag(cmd, &key)
	return cmd
}

func (a *app) instancesMetrics() *cobra.Command {
	var names, from, to string
	var step int
	cmd := &cobra.Command{
		Use:   "metrics NAME|ID",
		Short: "Show an instance's broker metrics (throughput, requests, partitions, produce latency)",
		Example: `  keel instances metrics orders
  keel instances metrics orders --names bytesInPerSec,produceLatencyP99Ms --from 2026-11-24T10:00:00Z -o json`,
		Args: cobra.ExactArgs(1),
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			params := &api.GetInstanceMetricsParams{Names: optional(names)}
			var err error
			if params.From, err = timeFlag("from", from); err != nil {
				return err
			}
			if params.To, err = timeFlag("to", to); err != nil {
				return err
			}
			if step != 0 {
				params.Step = &step
			}
			inst, err := a.instance(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			r, err := c.GetInstanceMetricsWithResponse(cmd.Context(), inst.JSON200.Id, params)
			if err != nil {
				return err
			}
			m := r.JSON200
			return a.print(r.Body, func(t *output.Table) {
				t.Row("METRIC", "UNIT", "POINTS", "LATEST", "AT")
				for _, s := range m.Series {
					if len(s.Points) == 0 {
						t.Row(s.Name, s.Unit, 0, nil, nil)
						continue
					}
					p := s.Points[len(s.Points)-1]
					t.Row(s.Name, s.Unit, len(s.Points), p.V, p.T)
				}
			})
		}),
	}
	cmd.Flags().StringVar(&names, "names", "", "comma-separated metric names (default: all)")
	cmd.Flags().StringVar(&from, "from", "", "start of the range, RFC 3339 (default: an hour before --to)")
	cmd.Flags().StringVar(&to, "to", "", "end of the range, RFC 3339 (default: now)")
	cmd.Flags().IntVar(&step, "step", 0, "seconds per point (default: about 360 points)")
	return cmd
}

func timeFlag(name, value string) (*time.Time, error) {
	if value == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339, value)
	if err != nil {
		return nil, usagef("--%s %q is not an RFC 3339 time such as 2026-11-24T10:00:00Z", name, value)
	}
	return &t, nil
}

func (a *app) instancesCost() *cobra.Command {
	var write, read float64
	var retention int
	var assumed assumptions
	cmd := &cobra.Command{
		Use:   "cost NAME|ID",
		Short: "Estimate an instance's monthly cloud cost next to self-managed Apache Kafka",
		Example: "  keel instances cost orders\n  keel instances cost orders --write-mibps 120 --read-mibps 240 --retention-hours 168\n" +
			"  keel instances cost orders --purchase-option reserved-1-year-no-upfront --follower-fetching --compression-ratio 4",
		Args: cobra.ExactArgs(1),
		RunE: a.withInstance(func(cmd *cobra.Command, c *api.ClientWithResponses, inst *api.GetInstanceResponse) error {
			params := &api.GetInstanceCostEstimateParams{}
			if cmd.Flags().Changed("write-mibps") {
				w := float32(write)
				params.WriteMiBps = &w
			}
			if cmd.Flags().Changed("read-mibps") {
				r := float32(read)
				params.ReadMiBps = &r
			}
			if cmd.Flags().Changed("retention-hours") {
				params.RetentionHours = &retention
			}
			if err := assumed.params(cmd, params); err != nil {
				return err
			}
			r, err := c.GetInstanceCostEstimateWithResponse(cmd.Context(), inst.JSON200.Id, params)
			if err != nil {
				return err
			}
			return a.print(r.Body, costTable(r.JSON200))
		}),
	}
	cmd.Flags().Float64Var(&write, "write-mibps", 0, "produce throughput to price (default: the AKU's write capacity)")
	cmd.Flags().Float64Var(&read, "read-mibps", 0, "consume throughput to price (default: the AKU's read capacity)")
	cmd.Flags().IntVar(&retention, "retention-hours", 0, "retention to price (default 72)")
	assumed.register(cmd)
	return cmd
}

func costTable(e *api.CostEstimate) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("OPTION", "ITEM", "QUANTITY", "UNIT", "USD/MONTH")
		for _, part := range []struct {
			name string
			cost api.CostBreakdown
		}{{"diskless", e.Diskless}, {"self-managed Kafka", e.SelfManagedKafka}} {
			for _, l := range part.cost.Lines {
				t.Row(part.name, l.Item, l.Quantity, l.Unit, l.MonthlyUsd)
			}
			t.Row(part.name, "total", "", "", part.cost.TotalMonthlyUsd)
		}
		t.Blank()
		t.Row(fmt.Sprintf("Workload %s MiB/s in, %s MiB/s out, %d h retention in %s: diskless saves %s %%.",
			output.Cell(e.Workload.WriteMiBps), output.Cell(e.Workload.ReadMiBps), e.Workload.RetentionHours, e.Region,
			output.Cell(e.SavingsPercent)))
		t.Blank()
		t.Row("ASSUMPTION", "VALUE", "SOURCE", "STATEMENT")
		for _, as := range e.Assumptions {
			t.Row(as.Name, as.Value, as.Source, as.Statement)
		}
	}
}

func (a *app) instancesCACertificate() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "ca-certificate NAME|ID",
		Short: "Print the instance's CA certificate (PEM), which clients trust the brokers' TLS listener with",
		Long: `Prints the certificate of the instance's own certificate authority, which signs its brokers' certificates,
or writes it to a file with -f. Kafka clients trust it with ssl.truststore.type=PEM and
ssl.truststore.location=FILE.`,
		Example: `  keel instances ca-certificate orders -f orders-ca.pem
  keel instances ca-certificate orders > orders-ca.pem`,
		Args: cobra.ExactArgs(1),
		RunE: a.withInstance(func(cmd *cobra.Command, c *api.ClientWithResponses, inst *api.GetInstanceResponse) error {
			r, err := c.GetInstanceCaCertificateWithResponse(cmd.Context(), inst.JSON200.Id, nil)
			if err != nil {
				return err
			}
			if file != "" {
				return os.WriteFile(file, r.Body, 0o644)
			}
			_, err = a.out.Write(r.Body)
			return err
		}),
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "write the certificate to this file instead of stdout")
	return cmd
}

func ptr[T any](v T) *T { return &v }
