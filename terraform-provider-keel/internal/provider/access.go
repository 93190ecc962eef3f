package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

// The Kafka access resources (users, ACLs, topics) live under an instance; the broker agent applies them to
// the brokers within seconds, and the resources wait until it has.

// defaultAccessTimeout is how long the Kafka access resources wait for the broker agent by default.
const defaultAccessTimeout = 10 * time.Minute

// accessTimeouts is the timeouts attribute of a Kafka access resource; update only where something changes
// in place.
func accessTimeouts(ctx context.Context, kind string, update bool) schema.Attribute {
	wait := func(verb string) string {
		return "How long " + verb + " waits for the broker agent: a duration such as `5m`; default `10m`."
	}
	opts := timeouts.Opts{Create: true, Delete: true, CreateDescription: wait("create"), DeleteDescription: wait("delete")}
	if update {
		opts.Update, opts.UpdateDescription = true, wait("update")
	}
	t := timeouts.Attributes(ctx, opts).(schema.SingleNestedAttribute)
	t.MarkdownDescription = "How long to wait for the broker agent to apply the " + kind + " to the brokers. When it " +
		"outlasts its timeout (e.g. while the instance is not running), Terraform stops waiting and reports it; the " +
		"change stays recorded and is applied once the brokers run."
	return t
}

// awaitStatus reads the object until its status is ACTIVE, FAILED (an error with its message) or the timeout
// passes; with gone set it waits for the object to disappear (404) instead.
func awaitStatus(ctx context.Context, timeout time.Duration, what string, gone bool,
	read func(context.Context) (api.KafkaAccessStatus, *string, error)) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last api.KafkaAccessStatus
	for {
		status, message, err := read(ctx)
		switch {
		case isNotFound(err) && gone:
			return nil
		case isNotFound(err):
			return fmt.Errorf("%s disappeared while waiting for it to become ACTIVE", what)
		case err != nil && ctx.Err() != nil:
			return fmt.Errorf("%s still %s after %s: the broker agent has not applied it (is the instance running?)", what, last, timeout)
		case err != nil:
			return err
		case !gone && status == api.KafkaAccessStatusACTIVE:
			return nil
		case status == api.KafkaAccessStatusFAILED:
			return fmt.Errorf("%s FAILED: %s", what, deref(message))
		}
		last = status
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s still %s after %s: the broker agent has not applied it (is the instance running?)", what, last, timeout)
		case <-time.After(client.PollInterval):
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// accessState is the state of a Kafka access resource (M, through its pointer S): what finds its object T in
// the API, and what is set from it.
type accessState[T, M any] interface {
	*M
	// key is the instance and the object's key (a name, an ACL's id) the state holds.
	key() (uuid.UUID, string, error)
	set(instance uuid.UUID, got *T)
	waits() timeouts.Value
}

// planned is a Kafka access resource's plan at Create, with the instance it names and how long to wait; ok is
// false once diags say why not.
func planned[T, M any, S accessState[T, M]](ctx context.Context, req resource.CreateRequest, diags *diag.Diagnostics) (
	plan S, instance uuid.UUID, timeout time.Duration, ok bool) {
	plan = S(new(M))
	diags.Append(req.Plan.Get(ctx, plan)...)
	timeout, more := plan.waits().Create(ctx, defaultAccessTimeout)
	diags.Append(more...)
	if diags.HasError() {
		return plan, uuid.Nil, 0, false
	}
	instance, _, err := plan.key()
	if err != nil {
		diags.AddAttributeError(path.Root("instance_id"), "Invalid instance id", err.Error())
		return plan, uuid.Nil, 0, false
	}
	return plan, instance, timeout, true
}

// readResource is a Kafka access resource's Read: the state set from the object as the API has it, or the
// resource removed from the state once the object is gone.
func readResource[T, M any, S accessState[T, M]](ctx context.Context, a accessAPI[T], req resource.ReadRequest, resp *resource.ReadResponse) {
	state := S(new(M))
	if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() {
		return
	}
	instance, key, err := state.key()
	if err != nil {
		resp.Diagnostics.AddError("Invalid instance id", err.Error())
		return
	}
	got := a.read(ctx, instance, key, resp)
	if got == nil {
		return
	}
	state.set(instance, got)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// deleteResource is a Kafka access resource's Delete: asked, then waited for until the broker agent has removed
// the object from the brokers.
func deleteResource[T, M any, S accessState[T, M]](ctx context.Context, a accessAPI[T], req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state := S(new(M))
	resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	timeout, diags := state.waits().Delete(ctx, defaultAccessTimeout)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	instance, key, _ := state.key()
	a.delete(ctx, instance, key, timeout, &resp.Diagnostics)
}

// splitID reads an import id INSTANCE_ID/KEY; parse, when given, checks the key and answers it as the API
// writes it.
func splitID(id, keyName string, parse func(string) (string, error)) (uuid.UUID, string, error) {
	instance, key, ok := strings.Cut(id, "/")
	parsed, err := uuid.Parse(instance)
	if ok && err == nil && key != "" && parse != nil {
		key, err = parse(key)
	}
	if !ok || err != nil || key == "" {
		return uuid.Nil, "", fmt.Errorf("%q is not INSTANCE_ID/%s", id, keyName)
	}
	return parsed, key, nil
}

// importByKey reads an import id INSTANCE_ID/KEY into the state's id, instance_id and the key's attribute.
func importByKey(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse,
	keyName, attribute string, parse func(string) (string, error)) {
	instance, key, err := splitID(req.ID, keyName, parse)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import id", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("instance_id"), instance.String())...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attribute), key)...)
}

// accessAPI is how a Kafka access resource reaches its object in the API: by the instance and a key (a
// user's or topic's name, an ACL's id).
type accessAPI[T any] struct {
	// what names the object in messages: "Kafka user", "ACL", "topic".
	what   string
	get    func(ctx context.Context, instance uuid.UUID, key string) (*T, error)
	remove func(ctx context.Context, instance uuid.UUID, key string) error
	status func(*T) (api.KafkaAccessStatus, *string)
}

// await waits until the broker agent has applied the object (ACTIVE), or, with gone, removed it.
func (a accessAPI[T]) await(ctx context.Context, instance uuid.UUID, key string, timeout time.Duration, gone bool) error {
	return awaitStatus(ctx, timeout, a.what+" "+key, gone, func(ctx context.Context) (api.KafkaAccessStatus, *string, error) {
		got, err := a.get(ctx, instance, key)
		if err != nil {
			return "", nil, err
		}
		status, message := a.status(got)
		return status, message, nil
	})
}

// settle waits for the broker agent, then answers the object as the API has it: to be stored even when the
// wait failed (reported in diags), so that Terraform keeps track of it.
func (a accessAPI[T]) settle(ctx context.Context, instance uuid.UUID, key string, timeout time.Duration, diags *diag.Diagnostics) *T {
	waitErr := a.await(ctx, instance, key, timeout, false)
	got, err := a.get(ctx, instance, key)
	if err != nil {
		addError(diags, "Reading the "+a.what+" failed", err)
		return nil
	}
	if waitErr != nil {
		addError(diags, "The broker agent has not applied the "+a.what, waitErr)
	}
	return got
}

// storeThenSettle stores the state as the API answered the change, so that a wait that fails leaves the object
// tracked (tainted), never asked for twice; then waits for the broker agent and stores the object as it settled.
func storeThenSettle[T, M any, S accessState[T, M]](ctx context.Context, a accessAPI[T], m S, timeout time.Duration,
	state *tfsdk.State, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, m)...)
	instance, key, _ := m.key()
	if got := a.settle(ctx, instance, key, timeout, diags); got != nil {
		m.set(instance, got)
		diags.Append(state.Set(ctx, m)...)
	}
}

// read is the object for a resource's Read; nil, with the resource removed from the state, once it is gone.
func (a accessAPI[T]) read(ctx context.Context, instance uuid.UUID, key string, resp *resource.ReadResponse) *T {
	got, err := a.get(ctx, instance, key)
	if isNotFound(err) {
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		addError(&resp.Diagnostics, "Reading the "+a.what+" failed", err)
		return nil
	}
	return got
}

// delete asks for the object's deletion and waits until the broker agent has removed it from the brokers.
func (a accessAPI[T]) delete(ctx context.Context, instance uuid.UUID, key string, timeout time.Duration, diags *diag.Diagnostics) {
	err := a.remove(ctx, instance, key)
	if isNotFound(err) {
		return
	}
	if err != nil {
		addError(diags, "Deleting the "+a.what+" failed", err)
		return
	}
	if err := a.await(ctx, instance, key, timeout, true); err != nil {
		addError(diags, "The broker agent has not removed the "+a.what, err)
	}
}
