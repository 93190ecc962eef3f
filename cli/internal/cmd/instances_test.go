package cmd

import (
	"errors"
	"testing"

	"keel.dev/cli/api"
)

func TestS3GatewayEndpointModeTakesTheFlagsWords(t *testing.T) {
	for flag, want := range map[string]api.S3GatewayEndpointMode{
		"create":           api.S3GatewayEndpointModeCREATE,
		"require-existing": api.S3GatewayEndpointModeREQUIREEXISTING,
		"none":             api.S3GatewayEndpointModeNONE,
	} {
		got, err := s3GatewayEndpointMode(flag)
		if err != nil || got != want {
			t.Errorf("--s3-gateway-endpoint %s gave %q, %v; want %q", flag, got, err, want)
		}
	}
}

func TestS3GatewayEndpointModeRefusesOtherWordsAsUsage(t *testing.T) {
	for _, flag := range []string{"", "existing", "require"} {
		_, err := s3GatewayEndpointMode(flag)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("--s3-gateway-endpoint %q gave %v; want a usage error", flag, err)
		}
	}
}
