package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A topic's update is a merge patch of what differs: more partitions, changed and new configs, and null for
// each config the configuration no longer sets (back to the brokers' default).
func TestTopicPatchSetsChangedConfigsAndRemovesDroppedOnes(t *testing.T) {
	state := kafkaTopicModel{Partitions: types.Int64Value(6),
		Configs: map[string]string{"retention.ms": "604800000", "cleanup.policy": "delete", "segment.ms": "3600000"}}
	plan := kafkaTopicModel{Partitions: types.Int64Value(12),
		Configs: map[string]string{"retention.ms": "1209600000", "cleanup.policy": "delete", "max.message.bytes": "2097152"}}
	got, err := json.Marshal(patchOf(plan, state))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"partitions":12,"configs":{"max.message.bytes":"2097152","retention.ms":"1209600000","segment.ms":null}}`
	if string(got) != want {
		t.Errorf("the patch is %s, want %s", got, want)
	}
}

func TestTopicPatchIsEmptyWhenNothingChanges(t *testing.T) {
	same := kafkaTopicModel{Partitions: types.Int64Value(3), Configs: map[string]string{"retention.ms": "1000"}}
	if p := patchOf(same, same); !p.Empty() {
		t.Errorf("an unchanged topic patches %+v", p)
	}
}

// Only a password_version that changes from one value to another rotates: setting one for the first time
// (after an import, or on a user created without it), or removing it, does not.
func TestPasswordVersionRotatesOnlyWhenItChanges(t *testing.T) {
	for _, c := range []struct {
		state, plan types.Int64
		want        bool
	}{
		{types.Int64Value(1), types.Int64Value(2), true},
		{types.Int64Value(1), types.Int64Value(1), false},
		{types.Int64Null(), types.Int64Value(1), false},
		{types.Int64Value(1), types.Int64Null(), false},
	} {
		if got := rotates(kafkaUserModel{PasswordVersion: c.plan}, kafkaUserModel{PasswordVersion: c.state}); got != c.want {
			t.Errorf("password_version %v -> %v rotates: %t, want %t", c.state, c.plan, got, c.want)
		}
	}
}

func TestImportIDsNameTheInstanceAndTheObject(t *testing.T) {
	instance := uuid.New()
	got, name, err := splitID(instance.String()+"/orders.v1", "NAME", nil)
	if err != nil || got != instance || name != "orders.v1" {
		t.Errorf("split gave %v %q %v", got, name, err)
	}
	for _, bad := range []string{"orders", instance.String(), instance.String() + "/", "not-an-id/orders"} {
		if _, _, err := splitID(bad, "NAME", nil); err == nil {
			t.Errorf("%q was taken as an import id", bad)
		}
	}
	acl := uuid.New()
	if _, key, err := splitID(instance.String()+"/"+strings.ToUpper(acl.String()), "ACL_ID", parseACLID); err != nil || key != acl.String() {
		t.Errorf("an ACL's import id gave %q %v, want %q", key, err, acl)
	}
	if _, _, err := splitID(instance.String()+"/orders", "ACL_ID", parseACLID); err == nil || !strings.Contains(err.Error(), "INSTANCE_ID/ACL_ID") {
		t.Errorf("an ACL's import id with a name was taken (%v)", err)
	}
}
