package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

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

// splitID reads an import id of the form instance_id/rest.
func splitID(id, rest string) (uuid.UUID, string, error) {
	instance, tail, ok := strings.Cut(id, "/")
	parsed, err := uuid.Parse(instance)
	if !ok || err != nil || tail == "" {
		return uuid.Nil, "", fmt.Errorf("%q is not INSTANCE_ID/%s", id, rest)
	}
	return parsed, tail, nil
}
