package provider

import (
	"context"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

type kafkaUserResource struct{ resourceBase }

type kafkaUserModel struct {
	ID                types.String   `tfsdk:"id"`
	InstanceID        types.String   `tfsdk:"instance_id"`
	Name              types.String   `tfsdk:"name"`
	PasswordVersion   types.Int64    `tfsdk:"password_version"`
	Password          types.String   `tfsdk:"password"`
	CredentialVersion types.Int64    `tfsdk:"credential_version"`
	Status            types.String   `tfsdk:"status"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

func newKafkaUserResource() resource.Resource {
	return &kafkaUserResource{resourceBase{name: "kafka_user"}}
}

var (
	_ resource.ResourceWithConfigure   = &kafkaUserResource{}
	_ resource.ResourceWithImportState = &kafkaUserResource{}
	_ resource.ResourceWithModifyPlan  = &kafkaUserResource{}
)

func (r *kafkaUserResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	kept := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Kafka user (SASL/SCRAM-SHA-512) on an instance's brokers, whose password Keel generates. " +
			"The password is known only at creation and at each rotation, so it is kept in the state (sensitive): keep " +
			"the state where secrets belong. Changing `password_version` rotates the password in place. Create and " +
			"rotation wait until the broker agent has applied the credential (`ACTIVE`), delete until it has removed " +
			"it. A user can do nothing until a `keel_kafka_acl` allows it. Import by `INSTANCE_ID/NAME`: an imported " +
			"user's password is unknown (null) until the next rotation.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, PlanModifiers: kept, MarkdownDescription: "`INSTANCE_ID/NAME`."},
			"instance_id": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The instance; it must authenticate clients (SASL_SSL, the default)."},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "1-64 letters, digits, `.`, `_` or `-`; the principal is `User:<name>`. Changing it replaces the user."},
			"password_version": schema.Int64Attribute{Optional: true,
				MarkdownDescription: "Any number; changing it rotates the password (a new one is generated and the old one refused " +
					"once the broker agent has applied it). Leaving it out, setting it on a user that had none, or removing it rotates nothing."},
			"password": schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: kept,
				MarkdownDescription: "The SCRAM password, as generated at creation or at the last rotation; null after an import."},
			"credential_version": schema.Int64Attribute{Computed: true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
				MarkdownDescription: "Counts the user's passwords: 1 at creation, one more at each rotation."},
			"status": schema.StringAttribute{Computed: true, PlanModifiers: kept,
				MarkdownDescription: "`CREATING`, `ACTIVE`, `UPDATING`, `RESTORING` (removed behind Keel's back and being put back) or `DELETING`."},
			"timeouts": accessTimeouts(ctx, "user", true),
		},
	}
}

// rotates says whether the plan asks for a new password: password_version changed from one value to another.
func rotates(plan, state kafkaUserModel) bool {
	return !state.PasswordVersion.IsNull() && !plan.PasswordVersion.IsNull() && !plan.PasswordVersion.IsUnknown() &&
		!plan.PasswordVersion.Equal(state.PasswordVersion)
}

// ModifyPlan shows a rotation's new password and credential version as known only after apply.
func (r *kafkaUserResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var plan, state kafkaUserModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !rotates(plan, state) {
		return
	}
	plan.Password = types.StringUnknown()
	plan.CredentialVersion = types.Int64Unknown()
	plan.Status = types.StringUnknown()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (m *kafkaUserModel) set(instance uuid.UUID, u *api.KafkaUser) {
	m.ID = types.StringValue(instance.String() + "/" + u.Name)
	m.InstanceID = types.StringValue(instance.String())
	m.Name = types.StringValue(u.Name)
	m.CredentialVersion = types.Int64Value(int64(u.CredentialVersion))
	m.Status = types.StringValue(string(u.Status))
}

func (m *kafkaUserModel) key() (uuid.UUID, string, error) {
	instance, err := uuid.Parse(m.InstanceID.ValueString())
	return instance, m.Name.ValueString(), err
}

func (m *kafkaUserModel) waits() timeouts.Value {
	return m.Timeouts
}

// access reaches the user in the API by its name.
func (r *kafkaUserResource) access() accessAPI[api.KafkaUser] {
	return accessAPI[api.KafkaUser]{
		what: "Kafka user",
		get: func(ctx context.Context, instance uuid.UUID, name string) (*api.KafkaUser, error) {
			got, err := r.api.GetKafkaUserWithResponse(ctx, instance, name, nil)
			if err != nil {
				return nil, err
			}
			return got.JSON200, nil
		},
		remove: func(ctx context.Context, instance uuid.UUID, name string) error {
			_, err := r.api.DeleteKafkaUserWithResponse(ctx, instance, name, &api.DeleteKafkaUserParams{IdempotencyKey: client.IdempotencyKey("")})
			return err
		},
		status: func(u *api.KafkaUser) (api.KafkaAccessStatus, *string) { return u.Status, u.StatusMessage },
	}
}

func (r *kafkaUserResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, instance, timeout, ok := planned[api.KafkaUser, kafkaUserModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	created, err := r.api.CreateKafkaUserWithResponse(ctx, instance, &api.CreateKafkaUserParams{IdempotencyKey: client.IdempotencyKey("")},
		api.KafkaUserCreation{Name: plan.Name.ValueString()})
	if err != nil {
		addError(&resp.Diagnostics, "Creating the Kafka user failed", err)
		return
	}
	// The password is shown once: stored before the wait, a wait that fails does not lose it.
	plan.set(instance, &created.JSON201.User)
	plan.Password = types.StringValue(created.JSON201.Password)
	storeThenSettle(ctx, r.access(), plan, timeout, &resp.State, &resp.Diagnostics)
}

func (r *kafkaUserResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readResource[api.KafkaUser, kafkaUserModel](ctx, r.access(), req, resp)
}

func (r *kafkaUserResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state kafkaUserModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	timeout, diags := plan.Timeouts.Update(ctx, defaultAccessTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	next := state
	next.PasswordVersion, next.Timeouts = plan.PasswordVersion, plan.Timeouts
	if !rotates(plan, state) {
		// A password_version set for the first time, or the timeouts: nothing to ask of the API.
		resp.Diagnostics.Append(resp.State.Set(ctx, &next)...)
		return
	}
	instance, _, _ := state.key()
	rotated, err := r.api.RotateKafkaUserPasswordWithResponse(ctx, instance, state.Name.ValueString(),
		&api.RotateKafkaUserPasswordParams{IdempotencyKey: client.IdempotencyKey("")})
	if err != nil {
		addError(&resp.Diagnostics, "Rotating the Kafka user's password failed", err)
		return
	}
	next.set(instance, &rotated.JSON200.User)
	next.Password = types.StringValue(rotated.JSON200.Password)
	storeThenSettle(ctx, r.access(), &next, timeout, &resp.State, &resp.Diagnostics)
}

func (r *kafkaUserResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteResource[api.KafkaUser, kafkaUserModel](ctx, r.access(), req, resp)
}

func (r *kafkaUserResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByKey(ctx, req, resp, "NAME", "name", nil)
}
