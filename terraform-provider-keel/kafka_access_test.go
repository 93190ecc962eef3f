package main_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
)

// TestKafkaAccess manages a Kafka user, an ACL and a topic on an instance: creates them (waiting for the
// broker agent), rotates the password through password_version, raises the partitions and changes configs in
// place, refuses fewer partitions in the plan, removes a config set behind Terraform's back, imports all three
// and destroys them. No broker runs here, so the test backend plays the agents' side of the access protocol.
func TestKafkaAccess(t *testing.T) {
	w := newWorkspace(t)
	keel := apiClient(t)
	ctx := context.Background()
	defer backend.PlayBrokerAgents(t, keel)()

	config := accessConfig{passwordVersion: 1, partitions: 3, configs: `{ "retention.ms" = "604800000", "cleanup.policy" = "delete" }`}
	w.write(config.render())
	w.mustApply()
	instance := uuid.MustParse(w.output("instance_id"))
	if admin := w.output("admin_username"); admin != "admin" {
		t.Errorf("the instance's default Kafka user is %q, want admin", admin)
	}
	if password := w.output("admin_password"); len(password) < 32 {
		t.Errorf("the admin's password has %d characters, want 32 or more", len(password))
	}
	user := getUser(t, keel, instance, "orders-service")
	if user.Status != api.KafkaAccessStatusACTIVE || user.CredentialVersion != 1 {
		t.Fatalf("after create the user is %s with credential version %d", user.Status, user.CredentialVersion)
	}
	firstPassword := w.output("password")
	if len(firstPassword) < 32 {
		t.Errorf("the user's password has %d characters, want 32 or more", len(firstPassword))
	}
	aclID := uuid.MustParse(w.output("acl_id"))
	if acl := getACL(t, keel, instance, aclID); acl.Status != api.KafkaAccessStatusACTIVE || acl.Principal != "User:orders-service" ||
		acl.Operation != api.KafkaAclOperationWRITE || acl.Host != "*" {
		t.Errorf("after create the ACL is %+v", acl)
	}
	topic := getTopic(t, keel, instance, "orders")
	if topic.Status != api.KafkaAccessStatusACTIVE || *topic.Partitions != 3 || topic.Configs["retention.ms"] != "604800000" {
		t.Fatalf("after create the topic is %s with %v partitions and configs %v", topic.Status, topic.Partitions, topic.Configs)
	}
	w.mustHaveNoChanges()

	// A new password_version rotates the password in place.
	config.passwordVersion = 2
	w.write(config.render())
	if actions := w.plannedActions("keel_kafka_user.orders_service"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("a new password_version plans %v, want [update]", actions)
	}
	w.mustApply()
	if user = getUser(t, keel, instance, "orders-service"); user.CredentialVersion != 2 || user.Status != api.KafkaAccessStatusACTIVE {
		t.Errorf("after rotation the user is %s with credential version %d, want ACTIVE with 2", user.Status, user.CredentialVersion)
	}
	if w.output("password") == firstPassword {
		t.Error("the rotation kept the password")
	}

	// Partitions rise and configs change in place; fewer partitions are refused in the plan.
	config.partitions, config.configs = 6, `{ "retention.ms" = "1209600000" }`
	w.write(config.render())
	if actions := w.plannedActions("keel_kafka_topic.orders"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("more partitions and other configs plan %v, want [update]", actions)
	}
	w.mustApply()
	topic = getTopic(t, keel, instance, "orders")
	if *topic.Partitions != 6 || topic.Configs["retention.ms"] != "1209600000" || topic.Configs["cleanup.policy"] != "" {
		t.Errorf("after the update the topic has %d partitions and configs %v", *topic.Partitions, topic.Configs)
	}
	config.partitions = 4
	w.write(config.render())
	if refused := w.mustFail("plan"); !strings.Contains(refused, "Kafka cannot lower a topic's partitions") {
		t.Errorf("fewer partitions were not refused in the plan:\n%s", refused)
	}
	config.partitions = 6
	w.write(config.render())

	// A config set behind Terraform's back shows in the plan, and the apply removes it.
	segment := "3600000"
	if _, err := keel.UpdateKafkaTopicWithApplicationMergePatchPlusJSONBodyWithResponse(ctx, instance, "orders",
		&api.UpdateKafkaTopicParams{}, api.KafkaTopicUpdate{Configs: &api.KafkaTopicConfigChanges{SegmentMs: &segment}}); err != nil {
		t.Fatal(err)
	}
	awaitTopic(t, keel, instance, "orders")
	if actions := w.plannedActions("keel_kafka_topic.orders"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("a config set outside Terraform plans %v, want [update]", actions)
	}
	w.mustApply()
	if topic = getTopic(t, keel, instance, "orders"); topic.Configs["segment.ms"] != "" {
		t.Errorf("the apply left segment.ms = %s", topic.Configs["segment.ms"])
	}
	w.mustHaveNoChanges()

	// Import by INSTANCE_ID/NAME and INSTANCE_ID/ACL_ID; the user's password is not rotated by it.
	for address, id := range map[string]string{
		"keel_kafka_user.orders_service": instance.String() + "/orders-service",
		"keel_kafka_acl.write_orders":    instance.String() + "/" + aclID.String(),
		"keel_kafka_topic.orders":        instance.String() + "/orders",
	} {
		w.mustRun("state", "rm", address)
		w.mustRun("import", address, id)
	}
	w.mustApply()
	w.mustHaveNoChanges()
	if user = getUser(t, keel, instance, "orders-service"); user.CredentialVersion != 2 {
		t.Errorf("after import and apply the user has credential version %d, want 2 (no rotation)", user.CredentialVersion)
	}

	w.mustRun("destroy", "-auto-approve")
	for what, err := range map[string]error{
		"user":  getErr(keel.GetKafkaUserWithResponse(ctx, instance, "orders-service", nil)),
		"ACL":   getErr(keel.GetKafkaAclWithResponse(ctx, instance, aclID, nil)),
		"topic": getErr(keel.GetKafkaTopicWithResponse(ctx, instance, "orders", nil)),
	} {
		var problem *client.Problem
		if !errors.As(err, &problem) || problem.Status != 404 {
			t.Errorf("after destroy the %s answers %v, want 404", what, err)
		}
	}
}

// accessConfig is the root module TestKafkaAccess applies: an instance with a user, an ACL and a topic.
type accessConfig struct {
	passwordVersion, partitions int
	configs                     string
}

func (c accessConfig) render() string {
	return fmt.Sprintf(`terraform {
  required_providers {
    keel = {
      source = "keel-dev/keel"
    }
  }
}

resource "keel_cloud_account" "customer" {
  name           = "tf-access"
  aws_account_id = %q
  role_arn       = %q
  regions        = ["us-east-1"]
}

module "demo" {
  source           = "./demo"
  name             = "access"
  cloud_account_id = keel_cloud_account.customer.id
  vpc_id           = %q
}

resource "keel_kafka_user" "orders_service" {
  instance_id      = module.demo.id
  name             = "orders-service"
  password_version = %d
}

resource "keel_kafka_acl" "write_orders" {
  instance_id   = module.demo.id
  principal     = "User:${keel_kafka_user.orders_service.name}"
  resource_type = "TOPIC"
  resource_name = keel_kafka_topic.orders.name
  operation     = "WRITE"
}

resource "keel_kafka_topic" "orders" {
  instance_id = module.demo.id
  name        = "orders"
  partitions  = %d
  configs     = %s
}

output "instance_id" {
  value = module.demo.id
}

output "admin_username" {
  value = module.demo.admin_username
}

output "admin_password" {
  value     = module.demo.admin_password
  sensitive = true
}

output "password" {
  value     = keel_kafka_user.orders_service.password
  sensitive = true
}

output "acl_id" {
  value = keel_kafka_acl.write_orders.acl_id
}
`, strings.Split(customer.RoleArn, ":")[4], customer.RoleArn, customer.VpcID, c.passwordVersion, c.partitions, c.configs)
}

func getUser(t *testing.T, c *api.ClientWithResponses, instance uuid.UUID, name string) *api.KafkaUser {
	t.Helper()
	r, err := c.GetKafkaUserWithResponse(context.Background(), instance, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.JSON200
}

func getACL(t *testing.T, c *api.ClientWithResponses, instance, id uuid.UUID) *api.KafkaAcl {
	t.Helper()
	r, err := c.GetKafkaAclWithResponse(context.Background(), instance, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.JSON200
}

func getTopic(t *testing.T, c *api.ClientWithResponses, instance uuid.UUID, name string) *api.KafkaTopic {
	t.Helper()
	r, err := c.GetKafkaTopicWithResponse(context.Background(), instance, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.JSON200
}

// awaitTopic waits until a change made through the API is applied (the topic ACTIVE again).
func awaitTopic(t *testing.T, c *api.ClientWithResponses, instance uuid.UUID, name string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for getTopic(t, c, instance, name).Status != api.KafkaAccessStatusACTIVE {
		if time.Now().After(deadline) {
			t.Fatalf("topic %s was not applied within a minute", name)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func getErr[R any](_ R, err error) error { return err }
