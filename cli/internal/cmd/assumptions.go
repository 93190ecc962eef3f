package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"keel.dev/cli/api"
)

// assumptions is the flags of estimates and instances cost that change what an estimate assumes; an unset one
// leaves the API's default.
type assumptions struct {
	purchaseOption   string
	followerFetching bool
	compressionRatio float64
}

func (f *assumptions) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.purchaseOption, "purchase-option", "", "how self-managed Kafka's brokers are bought: on-demand (default) or reserved-1-year-no-upfront")
	fl.BoolVar(&f.followerFetching, "follower-fetching", false, "self-managed Kafka's consumers read from their own zone (default false)")
	fl.Float64Var(&f.compressionRatio, "compression-ratio", 0, "producers' compression ratio, 1 to 20 (default 1: uncompressed)")
}

// purchaseOption is the API's value of --purchase-option (reserved-1-year-no-upfront is RESERVED_1_YEAR_NO_UPFRONT).
func purchaseOption(flag string) (api.PurchaseOption, error) {
	option := api.PurchaseOption(strings.ToUpper(strings.ReplaceAll(flag, "-", "_")))
	if !option.Valid() {
		return "", usagef("--purchase-option %q: use on-demand or reserved-1-year-no-upfront", flag)
	}
	return option, nil
}

// fields sets the request's assumptions from the flags given.
func (f *assumptions) fields(cmd *cobra.Command) ([]field, error) {
	var option api.PurchaseOption
	if cmd.Flags().Changed("purchase-option") {
		var err error
		if option, err = purchaseOption(f.purchaseOption); err != nil {
			return nil, err
		}
	}
	return []field{
		{"purchase-option", "assumptions.purchaseOption", func() any { return option }},
		{"follower-fetching", "assumptions.followerFetching", func() any { return f.followerFetching }},
		{"compression-ratio", "assumptions.compressionRatio", func() any { return f.compressionRatio }},
	}, nil
}

// params sets an instance estimate's query parameters from the flags given.
func (f *assumptions) params(cmd *cobra.Command, params *api.GetInstanceCostEstimateParams) error {
	if cmd.Flags().Changed("purchase-option") {
		option, err := purchaseOption(f.purchaseOption)
		if err != nil {
			return err
		}
		params.PurchaseOption = &option
	}
	if cmd.Flags().Changed("follower-fetching") {
		params.FollowerFetching = &f.followerFetching
	}
	if cmd.Flags().Changed("compression-ratio") {
		ratio := float32(f.compressionRatio)
		params.CompressionRatio = &ratio
	}
	return nil
}
