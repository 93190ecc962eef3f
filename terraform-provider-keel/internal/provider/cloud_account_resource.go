package provider

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

type cloudAccountResource struct{ resourceBase }

type cloudAccountModel struct {
	ID                  types.String   `tfsdk:"id"`
	Name                types.String   `tfsdk:"name"`
	AwsAccountID        types.String   `tfsdk:"aws_account_id"`
	RoleArn             types.String   `tfsdk:"role_arn"`
	Regions             []types.String `tfsdk:"regions"`
	ExternalID          types.String   `tfsdk:"external_id"`
	Status              types.String   `tfsdk:"status"`
	MissingActions      types.List     `tfsdk:"missing_actions"`
	VerificationMessage types.String   `tfsdk:"verification_message"`
}

func newCloudAccountResource() resource.Resource {
	return &cloudAccountResource{resourceBase{name: "cloud_account"}}
}

var (
	_ resource.ResourceWithConfigure   = &cloudAccountResource{}
	_ resource.ResourceWithImportState = &cloudAccountResource{}
)

func (r *cloudAccountResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	computed := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An AWS account Keel may act in, through a cross-account IAM role deployed from the onboarding " +
			"template (`GET /cloud-accounts/onboarding-template`). Registering verifies the role at once; an account " +
			"that fails verification is created with `status = \"VERIFICATION_FAILED\"` and a warning naming the " +
			"missing actions. Every change replaces it; deleting it leaves the role in AWS.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, PlanModifiers: computed, MarkdownDescription: "The cloud account's id."},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "A DNS-safe name, 3-64 characters, unique in the organization."},
			"aws_account_id": schema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "The 12-digit AWS account id."},
			"role_arn": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "The cross-account role's ARN, in `aws_account_id`."},
			"regions": schema.ListAttribute{Required: true, ElementType: types.StringType,
				PlanModifiers:       []planmodifier.List{listplanmodifier.RequiresReplace()},
				MarkdownDescription: "The regions instances of this account may use."},
			"external_id": schema.StringAttribute{Computed: true, PlanModifiers: computed,
				MarkdownDescription: "The organization's external id, which the role's trust policy must require."},
			"status": schema.StringAttribute{Computed: true, PlanModifiers: computed,
				MarkdownDescription: "`VERIFIED`, `VERIFICATION_FAILED` or `PENDING_VERIFICATION`."},
			"missing_actions": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The IAM actions the role lacks, when verification failed."},
			"verification_message": schema.StringAttribute{Computed: true, MarkdownDescription: "Why verification failed."},
		},
	}
}

func (m *cloudAccountModel) set(a *api.CloudAccount) {
	m.ID = types.StringValue(a.Id.String())
	m.Name = types.StringValue(a.Name)
	m.AwsAccountID = types.StringValue(a.AwsAccountId)
	m.RoleArn = types.StringValue(a.RoleArn)
	m.Regions = stringValues(a.Regions)
	m.ExternalID = types.StringValue(a.ExternalId)
	m.Status = types.StringValue(string(a.Status))
	actions := make([]attr.Value, len(a.Verification.MissingActions))
	for i, action := range a.Verification.MissingActions {
		actions[i] = types.StringValue(action)
	}
	m.MissingActions = types.ListValueMust(types.StringType, actions)
	m.VerificationMessage = types.StringPointerValue(a.Verification.Message)
}

func stringValues(values []string) []types.String {
	out := make([]types.String, len(values))
	for i, v := range values {
		out[i] = types.StringValue(v)
	}
	return out
}

func (r *cloudAccountResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan cloudAccountModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := api.CloudAccountRegistration{Name: plan.Name.ValueString(), AwsAccountId: plan.AwsAccountID.ValueString(), RoleArn: plan.RoleArn.ValueString()}
	for _, region := range plan.Regions {
		body.Regions = append(body.Regions, region.ValueString())
	}
	created, err := r.api.RegisterCloudAccountWithResponse(ctx, &api.RegisterCloudAccountParams{IdempotencyKey: client.IdempotencyKey("")}, body)
	if err != nil {
		addError(&resp.Diagnostics, "Registering the cloud account failed", err)
		return
	}
	account := created.JSON201
	plan.set(account)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if account.Status != api.VERIFIED {
		message := ""
		if account.Verification.Message != nil {
			message = *account.Verification.Message
		}
		resp.Diagnostics.AddAttributeWarning(path.Root("role_arn"), "The role is not verified",
			string(account.Status)+": "+message+" Missing: "+strings.Join(account.Verification.MissingActions, ", ")+
				". Fix the role, then verify it again (keel cloud-accounts verify "+account.Name+").")
	}
}

func (r *cloudAccountResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m cloudAccountModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, err := uuid.Parse(m.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Invalid cloud account id", err.Error())
		return
	}
	got, err := r.api.GetCloudAccountWithResponse(ctx, id, nil)
	if isNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading the cloud account failed", err)
		return
	}
	m.set(got.JSON200)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// Update is never asked for: every attribute a user sets replaces the account.
func (r *cloudAccountResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Cloud accounts cannot change", "Every change replaces a cloud account.")
}

func (r *cloudAccountResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m cloudAccountModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, _ := uuid.Parse(m.ID.ValueString())
	_, err := r.api.DeleteCloudAccountWithResponse(ctx, id, &api.DeleteCloudAccountParams{IdempotencyKey: client.IdempotencyKey("")})
	if err != nil && !isNotFound(err) {
		addError(&resp.Diagnostics, "Deleting the cloud account failed", err)
	}
}

func (r *cloudAccountResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
