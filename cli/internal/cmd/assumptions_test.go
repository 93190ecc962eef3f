package cmd

import (
	"errors"
	"testing"

	"keel.dev/cli/api"
)

func TestPurchaseOptionTakesTheFlagsWords(t *testing.T) {
	for flag, want := range map[string]api.PurchaseOption{
		"on-demand":                  api.ONDEMAND,
		"reserved-1-year-no-upfront": api.RESERVED1YEARNOUPFRONT,
	} {
		got, err := purchaseOption(flag)
		if err != nil || got != want {
			t.Errorf("--purchase-option %s gave %q, %v; want %q", flag, got, err, want)
		}
	}
}

func TestPurchaseOptionRefusesOtherWordsAsUsage(t *testing.T) {
	for _, flag := range []string{"", "reserved", "spot"} {
		_, err := purchaseOption(flag)
		var usage usageError
		if !errors.As(err, &usage) {
			t.Errorf("--purchase-option %q gave %v; want a usage error", flag, err)
		}
	}
}
