package provider

import (
	"testing"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
)

// s3_gateway_endpoint goes to the API as the create's network.s3GatewayEndpoint and comes back from the spec.
func TestS3GatewayEndpointRoundTrips(t *testing.T) {
	m := instanceModel{CloudAccountID: types.StringValue(uuid.NewString()), S3GatewayEndpoint: types.StringValue("REQUIRE_EXISTING")}
	body, err := m.creation()
	if err != nil {
		t.Fatal(err)
	}
	if e := body.Network.S3GatewayEndpoint; e == nil || *e != api.S3GatewayEndpointModeREQUIREEXISTING {
		t.Errorf("the create sent s3GatewayEndpoint %v, want REQUIRE_EXISTING", e)
	}

	none := api.S3GatewayEndpointModeNONE
	var read instanceModel
	read.set(&api.Instance{Spec: api.InstanceSpecView{Network: api.NetworkSpec{S3GatewayEndpoint: &none}}})
	if read.S3GatewayEndpoint.ValueString() != "NONE" {
		t.Errorf("an instance whose spec says NONE read as %s", read.S3GatewayEndpoint)
	}
}

// Left unknown (the default not yet applied), the field is not sent: the API's default applies.
func TestUnknownS3GatewayEndpointIsNotSent(t *testing.T) {
	m := instanceModel{CloudAccountID: types.StringValue(uuid.NewString()), S3GatewayEndpoint: types.StringUnknown()}
	body, err := m.creation()
	if err != nil {
		t.Fatal(err)
	}
	if body.Network.S3GatewayEndpoint != nil {
		t.Errorf("an unknown s3_gateway_endpoint sent %v", *body.Network.S3GatewayEndpoint)
	}
}
