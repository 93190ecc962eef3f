package provider

import (
	"context"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

type kafkaACLResource struct{ resourceBase }

type kafkaACLModel struct {
	ID           types.String   `tfsdk:"id"`
	ACLID        types.String   `tfsdk:"acl_id"`
	InstanceID   types.String   `tfsdk:"instance_id"`
	Principal    types.String   `tfsdk:"principal"`
	ResourceType types.String   `tfsdk:"resource_type"`
	ResourceName types.String   `tfsdk:"resource_name"`
	PatternType  types.String   `tfsdk:"pattern_type"`
	Operation    types.String   `tfsdk:"operation"`
	Permission   types.String   `tfsdk:"permission"`
	Host         types.String   `tfsdk:"host"`
	Status       types.String   `tfsdk:"status"`
	Timeouts     timeouts.Value `tfsdk:"timeouts"`
}

func newKafkaACLResource() resource.Resource {
	return &kafkaACLResource{resourceBase{name: "kafka_acl"}}
}

var (
	_ resource.ResourceWithConfigure   = &kafkaACLResource{}
	_ resource.ResourceWithImportState = &kafkaACLResource{}
)

func (r *kafkaACLResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	kept := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Kafka ACL on an instance's brokers: what a principal may (or may not) do with a resource. " +
			"The brokers refuse whatever no ACL allows. An ACL cannot change: any change replaces it. Create waits until the " +
			"broker agent has created the binding (`ACTIVE`), delete until it has deleted it. An ACL deleted behind Keel's " +
			"back with Kafka's own tools is put back by the agent. Import by `INSTANCE_ID/ACL_ID`.",
		Attributes: map[string]schema.Attribute{
			"id":     schema.StringAttribute{Computed: true, PlanModifiers: kept, MarkdownDescription: "`INSTANCE_ID/ACL_ID`."},
			"acl_id": schema.StringAttribute{Computed: true, PlanModifiers: kept, MarkdownDescription: "The ACL's id in the API."},
			"instance_id": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The instance; it must authenticate clients (SASL_SSL, the default)."},
			"principal": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "`User:<name>` (a SCRAM user, e.g. `User:${keel_kafka_user.orders.name}`) or `User:*` (everyone authenticated)."},
			"resource_type": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "`TOPIC`, `GROUP`, `CLUSTER` or `TRANSACTIONAL_ID`."},
			"resource_name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The resource's name, a prefix (with `pattern_type = \"PREFIXED\"`), `*` for every resource of the type, or `kafka-cluster` for `CLUSTER`."},
			"pattern_type": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("LITERAL"), PlanModifiers: replace,
				MarkdownDescription: "`LITERAL` (default) or `PREFIXED`."},
			"operation": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "`ALL`, `READ`, `WRITE`, `CREATE`, `DELETE`, `ALTER`, `DESCRIBE`, `CLUSTER_ACTION`, `DESCRIBE_CONFIGS`, `ALTER_CONFIGS` or `IDEMPOTENT_WRITE`."},
			"permission": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("ALLOW"), PlanModifiers: replace,
				MarkdownDescription: "`ALLOW` (default) or `DENY`."},
			"host": schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("*"), PlanModifiers: replace,
				MarkdownDescription: "`*` (any host, default) or the IP address the principal connects from."},
			"status": schema.StringAttribute{Computed: true, PlanModifiers: kept,
				MarkdownDescription: "`CREATING`, `ACTIVE` or `DELETING`."},
			"timeouts": accessTimeouts(ctx, "ACL", false),
		},
	}
}

func (m *kafkaACLModel) set(instance uuid.UUID, acl *api.KafkaAcl) {
	m.ID = types.StringValue(instance.String() + "/" + acl.Id.String())
	m.ACLID = types.StringValue(acl.Id.String())
	m.InstanceID = types.StringValue(instance.String())
	m.Principal = types.StringValue(acl.Principal)
	m.ResourceType = types.StringValue(string(acl.ResourceType))
	m.ResourceName = types.StringValue(acl.ResourceName)
	m.PatternType = types.StringValue(string(acl.PatternType))
	m.Operation = types.StringValue(string(acl.Operation))
	m.Permission = types.StringValue(string(acl.Permission))
	m.Host = types.StringValue(acl.Host)
	m.Status = types.StringValue(string(acl.Status))
}

func (m *kafkaACLModel) key() (uuid.UUID, string, error) {
	instance, err := uuid.Parse(m.InstanceID.ValueString())
	return instance, m.ACLID.ValueString(), err
}

func (m *kafkaACLModel) waits() timeouts.Value {
	return m.Timeouts
}

// access reaches the ACL in the API by its id.
func (r *kafkaACLResource) access() accessAPI[api.KafkaAcl] {
	return accessAPI[api.KafkaAcl]{
		what: "ACL",
		get: func(ctx context.Context, instance uuid.UUID, id string) (*api.KafkaAcl, error) {
			got, err := r.api.GetKafkaAclWithResponse(ctx, instance, uuid.MustParse(id), nil)
			if err != nil {
				return nil, err
			}
			return got.JSON200, nil
		},
		remove: func(ctx context.Context, instance uuid.UUID, id string) error {
			_, err := r.api.DeleteKafkaAclWithResponse(ctx, instance, uuid.MustParse(id), &api.DeleteKafkaAclParams{IdempotencyKey: client.IdempotencyKey("")})
			return err
		},
		status: func(acl *api.KafkaAcl) (api.KafkaAccessStatus, *string) { return acl.Status, acl.StatusMessage },
	}
}

func (r *kafkaACLResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, instance, timeout, ok := planned[api.KafkaAcl, kafkaACLModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	host := plan.Host.ValueString()
	created, err := r.api.CreateKafkaAclWithResponse(ctx, instance, &api.CreateKafkaAclParams{IdempotencyKey: client.IdempotencyKey("")},
		api.KafkaAclCreation{
			Principal:    plan.Principal.ValueString(),
			ResourceType: api.KafkaAclCreationResourceType(plan.ResourceType.ValueString()),
			ResourceName: plan.ResourceName.ValueString(),
			PatternType:  api.KafkaAclCreationPatternType(plan.PatternType.ValueString()),
			Operation:    api.KafkaAclCreationOperation(plan.Operation.ValueString()),
			Permission:   api.KafkaAclCreationPermission(plan.Permission.ValueString()),
			Host:         &host,
		})
	if err != nil {
		addError(&resp.Diagnostics, "Creating the ACL failed", err)
		return
	}
	plan.set(instance, created.JSON201)
	storeThenSettle(ctx, r.access(), plan, timeout, &resp.State, &resp.Diagnostics)
}

func (r *kafkaACLResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readResource[api.KafkaAcl, kafkaACLModel](ctx, r.access(), req, resp)
}

// Update changes only the timeouts: every other attribute replaces the ACL.
func (r *kafkaACLResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state kafkaACLModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	state.Timeouts = plan.Timeouts
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *kafkaACLResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteResource[api.KafkaAcl, kafkaACLModel](ctx, r.access(), req, resp)
}

func (r *kafkaACLResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByKey(ctx, req, resp, "ACL_ID", "acl_id", parseACLID)
}

// parseACLID takes an ACL's id in any form uuid reads, and answers it as the API writes it.
func parseACLID(key string) (string, error) {
	id, err := uuid.Parse(key)
	return id.String(), err
}
