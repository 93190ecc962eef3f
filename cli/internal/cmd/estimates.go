package cmd

import (
	"bytes"
	"strings"

	"github.com/spf13/cobra"

	"keel.dev/cli/api"
)

func (a *app) estimatesCommand() *cobra.Command {
	var file, region, wal string
	var zones, aku, fsxThroughput, fsxCount, retention int
	var write, read float64
	var assumed assumptions
	cmd := &cobra.Command{
		Use:   "estimates",
		Short: "Price a spec not yet created, next to self-managed Apache Kafka",
		Long: `Prices an EstimateRequest (-f, YAML or JSON) and/or flags with the current catalog: compute, FSx, S3
storage and requests, cross-AZ traffic, against self-managed Apache Kafka for the same workload. The assumptions
flags change what the comparison assumes; the answer lists every assumption it used.`,
		Example: `  keel estimates --region us-east-1 --zones 3 --wal FSWAL --aku 50 --fsx-throughput 1536 --fsx-count 2 \
    --write-mibps 1000 --read-mibps 1000 --retention-hours 72
  keel estimates --region us-east-1 --zones 3 --wal s3 --aku 6 --purchase-option reserved-1-year-no-upfront \
    --follower-fetching --compression-ratio 4
  keel estimates -f estimate.yaml -o json`,
		Args: cobra.NoArgs,
		RunE: a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
			assumedFields, err := assumed.fields(cmd)
			if err != nil {
				return err
			}
			body, err := a.requestBody(cmd, file, append([]field{
				{"region", "region", func() any { return region }},
				{"zones", "zones", func() any { return zones }},
				{"wal", "wal.type", func() any { return strings.ToUpper(wal) }},
				{"aku", "aku", func() any { return aku }},
				{"fsx-throughput", "fsx.throughputMBps", func() any { return fsxThroughput }},
				{"fsx-count", "fsx.count", func() any { return fsxCount }},
				{"write-mibps", "workload.writeMiBps", func() any { return write }},
				{"read-mibps", "workload.readMiBps", func() any { return read }},
				{"retention-hours", "workload.retentionHours", func() any { return retention }},
			}, assumedFields...), "give the spec with -f FILE or flags (--region, --zones, --wal, --aku)")
			if err != nil {
				return err
			}
			r, err := c.EstimateCostWithBodyWithResponse(cmd.Context(), nil, "application/json", bytes.NewReader(body))
			if err != nil {
				return err
			}
			return a.print(r.Body, costTable(r.JSON200))
		}),
	}
	fl := cmd.Flags()
	fl.StringVarP(&file, "file", "f", "", "an EstimateRequest document, YAML or JSON (- for stdin); flags override its fields")
	fl.StringVar(&region, "region", "", "the AWS region")
	fl.IntVar(&zones, "zones", 0, "1 or 3 zones")
	fl.StringVar(&wal, "wal", "", "the WAL type: EBS, S3 or FSWAL")
	fl.IntVar(&aku, "aku", 0, "capacity in AKU")
	fl.IntVar(&fsxThroughput, "fsx-throughput", 0, "FSx throughput per file system in MBps (FSWAL)")
	fl.IntVar(&fsxCount, "fsx-count", 0, "number of FSx file systems (FSWAL)")
	fl.Float64Var(&write, "write-mibps", 0, "produce throughput to price (default: the AKU's write capacity)")
	fl.Float64Var(&read, "read-mibps", 0, "consume throughput to price (default: the AKU's read capacity)")
	fl.IntVar(&retention, "retention-hours", 0, "retention to price (default 72)")
	assumed.register(cmd)
	return cmd
}
