package provider

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
)

// dataSource is what every data source shares: the API client and its type name.
type dataSource struct {
	api  *api.ClientWithResponses
	name string
}

func (d *dataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.name
}

func (d *dataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	d.api = configured(req.ProviderData)
}

// ---------------------------------------------------------------- keel_sizing_catalog

type sizingCatalogDataSource struct{ dataSource }

func newSizingCatalogDataSource() datasource.DataSource {
	return &sizingCatalogDataSource{dataSource{name: "sizing_catalog"}}
}

type sizingCatalogModel struct {
	Version        types.Int64          `tfsdk:"version"`
	AkuMin         types.Int64          `tfsdk:"aku_min"`
	AkuMax         types.Int64          `tfsdk:"aku_max"`
	AkuWriteMiBps  types.Float64        `tfsdk:"aku_write_mibps"`
	AkuReadMiBps   types.Float64        `tfsdk:"aku_read_mibps"`
	Regions        []types.String       `tfsdk:"regions"`
	WalTypes       []walTypeModel       `tfsdk:"wal_types"`
	Fsx            []fsxCapacityModel   `tfsdk:"fsx"`
	BrokerVersions []brokerVersionModel `tfsdk:"broker_versions"`
}

type walTypeModel struct {
	Type        types.String  `tfsdk:"type"`
	Zones       []types.Int64 `tfsdk:"zones"`
	Description types.String  `tfsdk:"description"`
}

type fsxCapacityModel struct {
	ThroughputMBps  types.Int64   `tfsdk:"throughput_mbps"`
	KafkaWriteMiBps types.Float64 `tfsdk:"kafka_write_mibps"`
	Benchmarked     types.Bool    `tfsdk:"benchmarked"`
}

type brokerVersionModel struct {
	Version  types.String   `tfsdk:"version"`
	WalTypes []types.String `tfsdk:"wal_types"`
	Default  types.Bool     `tfsdk:"default"`
}

func (d *sizingCatalogDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The current sizing catalog: the AKU definition and range, which WAL types fit which zone counts, " +
			"FSx write capacity per throughput, and the broker versions offered.",
		Attributes: map[string]schema.Attribute{
			"version":         schema.Int64Attribute{Computed: true, MarkdownDescription: "The catalog version new instances are sized with."},
			"aku_min":         schema.Int64Attribute{Computed: true, MarkdownDescription: "The smallest AKU an instance may have."},
			"aku_max":         schema.Int64Attribute{Computed: true, MarkdownDescription: "The largest AKU an instance may have."},
			"aku_write_mibps": schema.Float64Attribute{Computed: true, MarkdownDescription: "Write throughput of one AKU, MiB/s."},
			"aku_read_mibps":  schema.Float64Attribute{Computed: true, MarkdownDescription: "Read throughput of one AKU, MiB/s."},
			"regions":         schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The regions offered."},
			"wal_types": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The WAL types and the zone counts each fits.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"type":        schema.StringAttribute{Computed: true, MarkdownDescription: "`EBS`, `S3` or `FSWAL`."},
					"zones":       schema.ListAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Zone counts it fits."},
					"description": schema.StringAttribute{Computed: true, MarkdownDescription: "What it is and when to choose it."},
				}}},
			"fsx": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Kafka write capacity per FSx throughput.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"throughput_mbps":   schema.Int64Attribute{Computed: true, MarkdownDescription: "FSx throughput per file system, MBps."},
					"kafka_write_mibps": schema.Float64Attribute{Computed: true, MarkdownDescription: "Kafka write capacity, MiB/s; null when not benchmarked."},
					"benchmarked":       schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether instances may use it yet."},
				}}},
			"broker_versions": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The broker versions offered.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"version":   schema.StringAttribute{Computed: true, MarkdownDescription: "The version."},
					"wal_types": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The WAL types it runs."},
					"default":   schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether it is the default."},
				}}},
		},
	}
}

func (d *sizingCatalogDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	got, err := d.api.GetSizingCatalogWithResponse(ctx, nil)
	if err != nil {
		addError(&resp.Diagnostics, "Reading the sizing catalog failed", err)
		return
	}
	c := got.JSON200
	m := sizingCatalogModel{
		Version: types.Int64Value(int64(c.Version)), AkuMin: types.Int64Value(int64(c.Aku.Min)), AkuMax: types.Int64Value(int64(c.Aku.Max)),
		AkuWriteMiBps: types.Float64Value(float64(c.Aku.WriteMiBps)), AkuReadMiBps: types.Float64Value(float64(c.Aku.ReadMiBps)),
		Regions: stringValues(c.Regions),
	}
	for _, w := range c.WalTypes {
		zones := make([]types.Int64, len(w.Zones))
		for i, z := range w.Zones {
			zones[i] = types.Int64Value(int64(z))
		}
		m.WalTypes = append(m.WalTypes, walTypeModel{Type: types.StringValue(string(w.Type)), Zones: zones, Description: types.StringValue(w.Description)})
	}
	for _, f := range c.Fsx {
		write := types.Float64Null()
		if f.KafkaWriteMiBps != nil {
			write = types.Float64Value(float64(*f.KafkaWriteMiBps))
		}
		m.Fsx = append(m.Fsx, fsxCapacityModel{ThroughputMBps: types.Int64Value(int64(f.ThroughputMBps)), KafkaWriteMiBps: write, Benchmarked: types.BoolValue(f.Benchmarked)})
	}
	for _, b := range c.BrokerVersions {
		wal := make([]string, len(b.WalTypes))
		for i, w := range b.WalTypes {
			wal[i] = string(w)
		}
		m.BrokerVersions = append(m.BrokerVersions, brokerVersionModel{Version: types.StringValue(b.Version), WalTypes: stringValues(wal), Default: types.BoolValue(b.Default)})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ---------------------------------------------------------------- keel_cloud_account_networks

type cloudAccountNetworksDataSource struct{ dataSource }

func newCloudAccountNetworksDataSource() datasource.DataSource {
	return &cloudAccountNetworksDataSource{dataSource{name: "cloud_account_networks"}}
}

type networksModel struct {
	CloudAccountID types.String `tfsdk:"cloud_account_id"`
	Region         types.String `tfsdk:"region"`
	Vpcs           []vpcModel   `tfsdk:"vpcs"`
}

type vpcModel struct {
	VpcID     types.String     `tfsdk:"vpc_id"`
	Name      types.String     `tfsdk:"name"`
	CidrBlock types.String     `tfsdk:"cidr_block"`
	IsDefault types.Bool       `tfsdk:"is_default"`
	Subnets   []vpcSubnetModel `tfsdk:"subnets"`
}

type vpcSubnetModel struct {
	SubnetID         types.String `tfsdk:"subnet_id"`
	AvailabilityZone types.String `tfsdk:"availability_zone"`
	CidrBlock        types.String `tfsdk:"cidr_block"`
	Name             types.String `tfsdk:"name"`
}

func (d *cloudAccountNetworksDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The VPCs and subnets of a cloud account in a region, read now through its role: what an instance's " +
			"`vpc_id` and `subnets` are chosen from.",
		Attributes: map[string]schema.Attribute{
			"cloud_account_id": schema.StringAttribute{Required: true, MarkdownDescription: "A verified cloud account."},
			"region":           schema.StringAttribute{Required: true, MarkdownDescription: "One of the account's regions."},
			"vpcs": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The VPCs, non-default first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"vpc_id":     schema.StringAttribute{Computed: true, MarkdownDescription: "The VPC id."},
					"name":       schema.StringAttribute{Computed: true, MarkdownDescription: "Its `Name` tag, if any."},
					"cidr_block": schema.StringAttribute{Computed: true, MarkdownDescription: "Its CIDR block."},
					"is_default": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether it is the region's default VPC."},
					"subnets": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Its subnets, ordered by zone.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"subnet_id":         schema.StringAttribute{Computed: true, MarkdownDescription: "The subnet id."},
							"availability_zone": schema.StringAttribute{Computed: true, MarkdownDescription: "Its zone."},
							"cidr_block":        schema.StringAttribute{Computed: true, MarkdownDescription: "Its CIDR block."},
							"name":              schema.StringAttribute{Computed: true, MarkdownDescription: "Its `Name` tag, if any."},
						}}},
				}}},
		},
	}
}

func (d *cloudAccountNetworksDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m networksModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, err := uuid.Parse(m.CloudAccountID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Invalid cloud account id", err.Error())
		return
	}
	got, err := d.api.ListCloudAccountNetworksWithResponse(ctx, id, &api.ListCloudAccountNetworksParams{Region: m.Region.ValueString()})
	if err != nil {
		addError(&resp.Diagnostics, "Reading the cloud account's networks failed", err)
		return
	}
	m.Vpcs = nil
	for _, v := range got.JSON200.Vpcs {
		vpc := vpcModel{VpcID: types.StringValue(v.VpcId), Name: types.StringPointerValue(v.Name), CidrBlock: types.StringValue(v.CidrBlock),
			IsDefault: types.BoolValue(v.IsDefault), Subnets: []vpcSubnetModel{}}
		for _, s := range v.Subnets {
			vpc.Subnets = append(vpc.Subnets, vpcSubnetModel{SubnetID: types.StringValue(s.SubnetId), AvailabilityZone: types.StringValue(s.AvailabilityZone),
				CidrBlock: types.StringValue(s.CidrBlock), Name: types.StringPointerValue(s.Name)})
		}
		m.Vpcs = append(m.Vpcs, vpc)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// ---------------------------------------------------------------- keel_instance

type instanceDataSource struct{ dataSource }

func newInstanceDataSource() datasource.DataSource {
	return &instanceDataSource{dataSource{name: "instance"}}
}

func (d *instanceDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	// The resource's attributes, all read: one description of an instance for both.
	var rs resource.SchemaResponse
	(&instanceResource{}).Schema(ctx, resource.SchemaRequest{}, &rs)
	// The timeouts, and the admin's credentials the API answers only to the create, are the resource's alone.
	for _, own := range []string{"timeouts", "admin_username", "admin_password"} {
		delete(rs.Schema.Attributes, own)
	}
	attributes := dataSourceAttributes(rs.Schema.Attributes)
	attributes["id"] = schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "The instance's id; give it or `name`."}
	attributes["name"] = schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "The instance's name; give it or `id`."}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An instance found by `id` or by `name` (not deleted ones), with its spec, sizing and bootstrap servers.",
		Attributes:          attributes,
	}
}

func (d *instanceDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m instanceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id, err := uuid.Parse(m.ID.ValueString())
	if m.ID.IsNull() {
		id, err = d.idByName(ctx, m.Name.ValueString())
	}
	if err != nil {
		addError(&resp.Diagnostics, "Finding the instance failed", err)
		return
	}
	got, err := d.api.GetInstanceWithResponse(ctx, id, nil)
	if err != nil {
		addError(&resp.Diagnostics, "Reading the instance failed", err)
		return
	}
	m.set(got.JSON200)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (d *instanceDataSource) idByName(ctx context.Context, name string) (uuid.UUID, error) {
	limit := 100
	got, err := d.api.ListInstancesWithResponse(ctx, &api.ListInstancesParams{Name: &name, Limit: &limit})
	if err != nil {
		return uuid.Nil, err
	}
	for _, i := range got.JSON200.Items {
		if i.Name == name {
			return i.Id, nil
		}
	}
	return uuid.Nil, fmt.Errorf("no instance named %q (give id or name)", name)
}

// dataSourceAttributes is resource attributes made read-only, with the same descriptions.
func dataSourceAttributes(in map[string]rschema.Attribute) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(in))
	for name, a := range in {
		switch a := a.(type) {
		case rschema.StringAttribute:
			out[name] = schema.StringAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
		case rschema.Int64Attribute:
			out[name] = schema.Int64Attribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
		case rschema.BoolAttribute:
			out[name] = schema.BoolAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription}
		case rschema.ListNestedAttribute:
			out[name] = schema.ListNestedAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription,
				NestedObject: schema.NestedAttributeObject{Attributes: dataSourceAttributes(a.NestedObject.Attributes)}}
		case rschema.SingleNestedAttribute:
			out[name] = schema.SingleNestedAttribute{Computed: true, MarkdownDescription: a.MarkdownDescription,
				Attributes: dataSourceAttributes(a.Attributes)}
		default:
			panic(fmt.Sprintf("no data source form for attribute %s (%T)", name, a))
		}
	}
	return out
}
