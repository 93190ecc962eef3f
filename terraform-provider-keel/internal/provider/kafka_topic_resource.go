package provider

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

type kafkaTopicResource struct{ resourceBase }

type kafkaTopicModel struct {
	ID                types.String      `tfsdk:"id"`
	InstanceID        types.String      `tfsdk:"instance_id"`
	Name              types.String      `tfsdk:"name"`
	Partitions        types.Int64       `tfsdk:"partitions"`
	ReplicationFactor types.Int64       `tfsdk:"replication_factor"`
	Configs           map[string]string `tfsdk:"configs"`
	Status            types.String      `tfsdk:"status"`
	Timeouts          timeouts.Value    `tfsdk:"timeouts"`
}

func newKafkaTopicResource() resource.Resource {
	return &kafkaTopicResource{resourceBase{name: "kafka_topic"}}
}

var (
	_ resource.ResourceWithConfigure   = &kafkaTopicResource{}
	_ resource.ResourceWithImportState = &kafkaTopicResource{}
	_ resource.ResourceWithModifyPlan  = &kafkaTopicResource{}
)

func (r *kafkaTopicResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Kafka topic on an instance's brokers. `partitions` rises in place (Kafka cannot lower it: " +
			"the plan refuses a decrease) and `configs` change in place; a config set outside Terraform shows in the plan " +
			"and is removed by the next apply. Create, update and delete wait until the broker agent has applied the change; " +
			"a change Kafka refuses fails with Kafka's message. Import by `INSTANCE_ID/NAME`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "`INSTANCE_ID/NAME`."},
			"instance_id": schema.StringAttribute{Required: true, PlanModifiers: replace, MarkdownDescription: "The instance."},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				MarkdownDescription: "1-249 letters, digits, `.`, `_` or `-`, not starting with `__`. Changing it replaces the topic, and its data is lost."},
			"partitions": schema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(1),
				MarkdownDescription: "The number of partitions, 1-10,000; default 1. Rises in place; a decrease is refused in the plan."},
			"replication_factor": schema.Int64Attribute{Optional: true, Computed: true,
				PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown(), int64planmodifier.RequiresReplace()},
				MarkdownDescription: "Replicas per partition, 1 to the instance's broker count; default: the brokers' default (one " +
					"replica is what diskless brokers' shared storage needs). Changing it replaces the topic."},
			"configs": schema.MapAttribute{Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Topic configs, as Kafka's strings: `cleanup.policy`, `retention.ms`, `retention.bytes`, " +
					"`max.message.bytes`, `segment.bytes`, `segment.ms`, `min.insync.replicas`, `compression.type`, " +
					"`message.timestamp.type`, `delete.retention.ms`, `min.compaction.lag.ms`, `max.compaction.lag.ms`. " +
					"Change in place; a config left out has the brokers' default."},
			"status": schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "`CREATING`, `ACTIVE`, `UPDATING`, `DELETING` or `FAILED`."},
			"timeouts": accessTimeouts(ctx, "topic", true),
		},
	}
}

// ModifyPlan refuses fewer partitions, and shows the status of a topic that changes as known after apply.
func (r *kafkaTopicResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var plan, state kafkaTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Partitions.IsUnknown() && !state.Partitions.IsNull() && plan.Partitions.ValueInt64() < state.Partitions.ValueInt64() {
		resp.Diagnostics.AddAttributeError(path.Root("partitions"), "Kafka cannot lower a topic's partitions",
			fmt.Sprintf("Topic %s has %d partitions; it cannot have %d. Keep %d or more, or create a topic of another name.",
				state.Name.ValueString(), state.Partitions.ValueInt64(), plan.Partitions.ValueInt64(), state.Partitions.ValueInt64()))
		return
	}
	if plan.Name.Equal(state.Name) && !patchOf(plan, state).Empty() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("status"), types.StringUnknown())...)
	}
}

// patchOf is the merge patch that turns the state's topic into the plan's: a higher partition count, the
// configs that differ, and null for each config the plan no longer sets.
func patchOf(plan, state kafkaTopicModel) client.TopicChange {
	var u client.TopicChange
	if !plan.Partitions.IsUnknown() && !plan.Partitions.Equal(state.Partitions) {
		p := int(plan.Partitions.ValueInt64())
		u.Partitions = &p
	}
	u.Configs = map[string]*string{}
	for k, v := range plan.Configs {
		if current, ok := state.Configs[k]; !ok || current != v {
			u.Configs[k] = &v
		}
	}
	for k := range state.Configs {
		if _, kept := plan.Configs[k]; !kept {
			u.Configs[k] = nil
		}
	}
	return u
}

// set copies what the API says of the topic; partitions and replication stay as they were until the broker
// agent has seen the topic, and no configs stay null.
func (m *kafkaTopicModel) set(instance uuid.UUID, t *api.KafkaTopic) {
	m.ID = types.StringValue(instance.String() + "/" + t.Name)
	m.InstanceID = types.StringValue(instance.String())
	m.Name = types.StringValue(t.Name)
	if t.Partitions != nil {
		m.Partitions = types.Int64Value(int64(*t.Partitions))
	}
	if t.ReplicationFactor != nil {
		m.ReplicationFactor = types.Int64Value(int64(*t.ReplicationFactor))
	} else if m.ReplicationFactor.IsUnknown() {
		m.ReplicationFactor = types.Int64Null()
	}
	m.Configs = nil
	if len(t.Configs) > 0 {
		m.Configs = t.Configs
	}
	m.Status = types.StringValue(string(t.Status))
}

func (m *kafkaTopicModel) key() (uuid.UUID, string, error) {
	instance, err := uuid.Parse(m.InstanceID.ValueString())
	return instance, m.Name.ValueString(), err
}

func (m *kafkaTopicModel) waits() timeouts.Value {
	return m.Timeouts
}

// access reaches the topic in the API by its name.
func (r *kafkaTopicResource) access() accessAPI[api.KafkaTopic] {
	return accessAPI[api.KafkaTopic]{
		what: "topic",
		get: func(ctx context.Context, instance uuid.UUID, name string) (*api.KafkaTopic, error) {
			got, err := r.api.GetKafkaTopicWithResponse(ctx, instance, name, nil)
			if err != nil {
				return nil, err
			}
			return got.JSON200, nil
		},
		remove: func(ctx context.Context, instance uuid.UUID, name string) error {
			_, err := r.api.DeleteKafkaTopicWithResponse(ctx, instance, name, &api.DeleteKafkaTopicParams{IdempotencyKey: client.IdempotencyKey("")})
			return err
		},
		status: func(t *api.KafkaTopic) (api.KafkaAccessStatus, *string) { return t.Status, t.StatusMessage },
	}
}

func (r *kafkaTopicResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, instance, timeout, ok := planned[api.KafkaTopic, kafkaTopicModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	partitions := int(plan.Partitions.ValueInt64())
	body := client.TopicCreation{Name: plan.Name.ValueString(), Partitions: &partitions, Configs: plan.Configs}
	if !plan.ReplicationFactor.IsUnknown() && !plan.ReplicationFactor.IsNull() {
		rf := int(plan.ReplicationFactor.ValueInt64())
		body.ReplicationFactor = &rf
	}
	created, err := client.CreateTopic(ctx, r.api, instance, "", body)
	if err != nil {
		addError(&resp.Diagnostics, "Creating the topic failed", err)
		return
	}
	plan.set(instance, created.JSON202)
	storeThenSettle(ctx, r.access(), plan, timeout, &resp.State, &resp.Diagnostics)
}

func (r *kafkaTopicResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readResource[api.KafkaTopic, kafkaTopicModel](ctx, r.access(), req, resp)
}

func (r *kafkaTopicResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state kafkaTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	timeout, diags := plan.Timeouts.Update(ctx, defaultAccessTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	patch := patchOf(plan, state)
	next := state
	next.Timeouts = plan.Timeouts
	if patch.Empty() {
		// Only the timeouts changed: nothing to ask of the API.
		resp.Diagnostics.Append(resp.State.Set(ctx, &next)...)
		return
	}
	instance, _, _ := state.key()
	updated, err := client.UpdateTopic(ctx, r.api, instance, state.Name.ValueString(), "", patch)
	if err != nil {
		addError(&resp.Diagnostics, "Changing the topic failed", err)
		return
	}
	next.set(instance, updated.JSON202)
	storeThenSettle(ctx, r.access(), &next, timeout, &resp.State, &resp.Diagnostics)
}

func (r *kafkaTopicResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteResource[api.KafkaTopic, kafkaTopicModel](ctx, r.access(), req, resp)
}

func (r *kafkaTopicResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importByKey(ctx, req, resp, "NAME", "name", nil)
}
