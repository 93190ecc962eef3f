package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

// defaultOperationTimeout is how long create, update and delete wait for their operation by default.
const defaultOperationTimeout = 30 * time.Minute

type instanceResource struct{ resourceBase }

type instanceResourceModel struct {
	instanceModel
	// AdminUsername and AdminPassword are the default Kafka user's credentials, answered only by the create.
	AdminUsername types.String   `tfsdk:"admin_username"`
	AdminPassword types.String   `tfsdk:"admin_password"`
	Timeouts      timeouts.Value `tfsdk:"timeouts"`
}

func newInstanceResource() resource.Resource {
	return &instanceResource{resourceBase{name: "instance"}}
}

var (
	_ resource.ResourceWithConfigure   = &instanceResource{}
	_ resource.ResourceWithImportState = &instanceResource{}
	_ resource.ResourceWithModifyPlan  = &instanceResource{}
)

// observed are the attributes the API derives from aku and fsx.
var observed = []string{"state", "bootstrap_servers", "spec_version", "catalog_version", "instance_type", "broker_count"}

// ModifyPlan keeps the derived attributes known when the capacity does not change (e.g. only the timeouts
// do), so the plan shows what changes and nothing more.
func (r *instanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	for _, name := range []string{"aku", "fsx"} {
		var planned, current attr.Value
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(name), &planned)...)
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &current)...)
		if resp.Diagnostics.HasError() || !planned.Equal(current) {
			return
		}
	}
	for _, name := range observed {
		var current attr.Value
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &current)...)
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), current)...)
	}
}

func (r *instanceResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A diskless Kafka instance in a cloud account. `aku` and `fsx` change in place (an `UPDATE` " +
			"operation, waited for), and so does `deletion_protection`; any other change replaces the instance, as the API " +
			"cannot change the WAL type or the zones of an existing instance. Create, update and delete wait for their " +
			"operation up to `timeouts` (default 30 minutes each). A destroy keeps the instance's data bucket for the " +
			"control plane's retention period (7 days by default), then the control plane deletes it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The instance's id.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "A DNS-safe name, 3-64 characters, unique among the organization's instances."},
			"cloud_account_id": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The verified cloud account the instance runs in."},
			"region": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The AWS region, one of the cloud account's regions."},
			"vpc_id": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The VPC the brokers run in."},
			"subnets": schema.ListNestedAttribute{Required: true,
				PlanModifiers:       []planmodifier.List{listplanmodifier.RequiresReplace()},
				MarkdownDescription: "One subnet per zone: 1 zone (EBS or S3 WAL) or 3 zones (S3 or FSWAL). Changing the zones replaces the instance.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"availability_zone": schema.StringAttribute{Required: true, MarkdownDescription: "The zone, e.g. `us-east-1a`."},
					"subnet_id":         schema.StringAttribute{Required: true, MarkdownDescription: "A subnet of `vpc_id` in that zone."},
				}},
			},
			"s3_gateway_endpoint": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("CREATE"),
				PlanModifiers: replace,
				MarkdownDescription: "What Keel does about the VPC's S3 gateway endpoint, which spares the brokers' S3 traffic a NAT " +
					"gateway's per-GB charge: `CREATE` (use the endpoint on each subnet's route table, or create Keel's and add the " +
					"route tables to it; default), `REQUIRE_EXISTING` (use yours; the create fails before anything is made when a " +
					"subnet's route table has none) or `NONE` (leave the VPC's routing alone; the S3 traffic goes through your NAT " +
					"path). Fixed at create: changing it replaces the instance."},
			"wal": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The write-ahead log: `EBS` (1 zone), `S3` (1 or 3 zones) or `FSWAL` (FSx for ONTAP, 3 zones). Changing it replaces the instance."},
			"aku": schema.Int64Attribute{Required: true,
				MarkdownDescription: "Capacity in AKU (catalog v1: 1 AKU = 20 MiB/s write, 20 MiB/s read, 800 requests/s, 1,125 partitions). Changes in place."},
			"fsx": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "FSx for ONTAP file systems (FSWAL only); their write capacity must cover the AKU. Changes in place.",
				Attributes: map[string]schema.Attribute{
					"throughput_mbps": schema.Int64Attribute{Required: true, MarkdownDescription: "Throughput per file system: 384, 768 or 1536 MBps."},
					"count":           schema.Int64Attribute{Required: true, MarkdownDescription: "Number of file systems."},
				},
			},
			"deletion_protection": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "While `true`, the API refuses to delete the instance: a destroy (or a replacement) fails with its " +
					"message until it is set to `false` and applied. Changes in place; default `false`."},
			"broker_version": schema.StringAttribute{Optional: true, Computed: true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				MarkdownDescription: "The broker version; default: the catalog's newest version that runs `wal`."},
			"state":             schema.StringAttribute{Computed: true, MarkdownDescription: "`CREATING`, `RUNNING`, `CHANGING`, `DELETING`, `DELETED` or `FAILED`."},
			"bootstrap_servers": schema.StringAttribute{Computed: true, MarkdownDescription: "Comma-separated `host:port` list for Kafka clients; null until the brokers are up."},
			"spec_version":      schema.Int64Attribute{Computed: true, MarkdownDescription: "The spec version; updates send it as `If-Match`, so a change made elsewhere since the last refresh is refused rather than overwritten."},
			"catalog_version":   schema.Int64Attribute{Computed: true, MarkdownDescription: "The sizing catalog version the instance was sized with."},
			"instance_type":     schema.StringAttribute{Computed: true, MarkdownDescription: "The EC2 instance type of the brokers."},
			"broker_count":      schema.Int64Attribute{Computed: true, MarkdownDescription: "The number of brokers the AKU maps to."},
			"admin_username": schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "The default Kafka user the instance is created with (`admin`, whose ACLs allow everything); null " +
					"when its brokers authenticate nobody, and after an import."},
			"admin_password": schema.StringAttribute{Computed: true, Sensitive: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "The default Kafka user's password, which the API answers only to the create: kept in the " +
					"state (sensitive). Null after an import; rotate it with `keel users rotate-password admin --instance NAME` " +
					"or manage a user of your own with `keel_kafka_user`."},
			"timeouts": operationTimeouts(ctx),
		},
	}
}

func operationTimeouts(ctx context.Context) schema.Attribute {
	wait := func(verb string) string {
		return "How long " + verb + " waits for its operation: a duration such as `45m` or `1h`; default `30m`."
	}
	t := timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true,
		CreateDescription: wait("create"), UpdateDescription: wait("update"), DeleteDescription: wait("delete")}).(schema.SingleNestedAttribute)
	t.MarkdownDescription = "How long to wait for the operations that create, change and delete the instance. When one " +
		"outlasts its timeout, Terraform stops waiting and reports it; the operation goes on in the control plane."
	return t
}

func (r *instanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan instanceResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	timeout, diags := plan.Timeouts.Create(ctx, defaultOperationTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	body, err := plan.creation()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("cloud_account_id"), "Invalid cloud account id", err.Error())
		return
	}
	created, err := r.api.CreateInstanceWithResponse(ctx, &api.CreateInstanceParams{IdempotencyKey: client.IdempotencyKey("")}, body)
	if err != nil {
		addError(&resp.Diagnostics, "Creating the instance failed", err)
		return
	}
	var op api.Operation
	if err := json.Unmarshal(created.Body, &op); err != nil {
		addError(&resp.Diagnostics, "Reading the CREATE operation failed", err)
		return
	}
	plan.AdminUsername, plan.AdminPassword = types.StringNull(), types.StringNull()
	if admin := created.JSON202.AdminCredentials; admin != nil {
		plan.AdminUsername, plan.AdminPassword = types.StringValue(admin.Username), types.StringValue(admin.Password)
	}
	r.finish(ctx, &op, timeout, &plan, &resp.State, &resp.Diagnostics)
}

// finish waits for the operation, then stores the instance as the API has it. The instance is stored even
// when the operation fails or the wait times out, so Terraform keeps track of it (tainted) and never
// creates it twice.
func (r *instanceResource) finish(ctx context.Context, op *api.Operation, timeout time.Duration, m *instanceResourceModel,
	state *tfsdk.State, diags *diag.Diagnostics) {
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	_, waitErr := client.WaitOperation(waitCtx, r.api, op.Id, nil)
	got, err := r.api.GetInstanceWithResponse(ctx, op.InstanceId, nil)
	if err != nil {
		addError(diags, "Reading the instance failed", err)
		return
	}
	m.set(got.JSON200)
	diags.Append(state.Set(ctx, m)...)
	if waitErr != nil {
		addError(diags, fmt.Sprintf("The %s operation did not succeed", op.Type), waitErr)
	}
}

func (r *instanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m instanceResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, err := uuid.Parse(m.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Invalid instance id", err.Error())
		return
	}
	got, err := r.api.GetInstanceWithResponse(ctx, id, nil)
	if isNotFound(err) || (err == nil && got.JSON200.State == api.InstanceStateDELETED) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading the instance failed", err)
		return
	}
	m.set(got.JSON200)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *instanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state instanceResourceModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	timeout, diags := plan.Timeouts.Update(ctx, defaultOperationTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	var patch api.InstanceUpdate
	if !plan.Aku.Equal(state.Aku) {
		aku := int(plan.Aku.ValueInt64())
		patch.Aku = &aku
	}
	if spec := plan.fsxSpec(); spec != nil && (state.Fsx == nil || *spec != *state.fsxSpec()) {
		patch.Fsx = &struct {
			Count          *int               `json:"count,omitempty"`
			ThroughputMBps *api.FsxThroughput `json:"throughputMBps,omitempty"`
		}{Count: &spec.Count, ThroughputMBps: &spec.ThroughputMBps}
	}
	if !plan.DeletionProtection.Equal(state.DeletionProtection) {
		patch.DeletionProtection = plan.DeletionProtection.ValueBoolPointer()
	}
	if patch.Aku == nil && patch.Fsx == nil && patch.DeletionProtection == nil {
		// Only the timeouts changed: nothing to ask of the API.
		plan.instanceModel = state.instanceModel
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	id, _ := uuid.Parse(state.ID.ValueString())
	updated, err := r.api.UpdateInstanceWithApplicationMergePatchPlusJSONBodyWithResponse(ctx, id, &api.UpdateInstanceParams{
		IfMatch: client.Quote(fmt.Sprint(state.SpecVersion.ValueInt64())), IdempotencyKey: client.IdempotencyKey(""),
	}, patch)
	if err != nil {
		addError(&resp.Diagnostics, "Changing the instance failed", err)
		return
	}
	if updated.JSON200 != nil {
		// Deletion protection alone changes at once, with no operation to wait for.
		plan.set(updated.JSON200)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	r.finish(ctx, updated.JSON202, timeout, &plan, &resp.State, &resp.Diagnostics)
}

func (r *instanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state instanceResourceModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	timeout, diags := state.Timeouts.Delete(ctx, defaultOperationTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, _ := uuid.Parse(state.ID.ValueString())
	deleted, err := r.api.DeleteInstanceWithResponse(ctx, id, &api.DeleteInstanceParams{IdempotencyKey: client.IdempotencyKey("")})
	if isNotFound(err) {
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Deleting the instance failed", err)
		return
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if _, err := client.WaitOperation(waitCtx, r.api, deleted.JSON202.Id, nil); err != nil {
		addError(&resp.Diagnostics, "The DELETE operation did not succeed", err)
	}
}

func (r *instanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
