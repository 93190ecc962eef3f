package provider

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"keel.dev/cli/api"
)

// instanceModel is an instance as the resource and the data source keel_instance hold it.
type instanceModel struct {
	ID               types.String  `tfsdk:"id"`
	Name             types.String  `tfsdk:"name"`
	CloudAccountID   types.String  `tfsdk:"cloud_account_id"`
	Region           types.String  `tfsdk:"region"`
	VpcID            types.String  `tfsdk:"vpc_id"`
	Subnets          []subnetModel `tfsdk:"subnets"`
	Wal              types.String  `tfsdk:"wal"`
	Aku              types.Int64   `tfsdk:"aku"`
	Fsx              *fsxModel     `tfsdk:"fsx"`
	BrokerVersion    types.String  `tfsdk:"broker_version"`
	State            types.String  `tfsdk:"state"`
	BootstrapServers types.String  `tfsdk:"bootstrap_servers"`
	SpecVersion      types.Int64   `tfsdk:"spec_version"`
	CatalogVersion   types.Int64   `tfsdk:"catalog_version"`
	InstanceType     types.String  `tfsdk:"instance_type"`
	BrokerCount      types.Int64   `tfsdk:"broker_count"`
	// DeletionProtection refuses a destroy while true.
	DeletionProtection types.Bool `tfsdk:"deletion_protection"`
	// S3GatewayEndpoint is what Keel does about the VPC's S3 gateway endpoint, fixed at create.
	S3GatewayEndpoint types.String `tfsdk:"s3_gateway_endpoint"`
}

type subnetModel struct {
	AvailabilityZone types.String `tfsdk:"availability_zone"`
	SubnetID         types.String `tfsdk:"subnet_id"`
}

type fsxModel struct {
	ThroughputMBps types.Int64 `tfsdk:"throughput_mbps"`
	Count          types.Int64 `tfsdk:"count"`
}

// set copies what the API says about the instance.
func (m *instanceModel) set(i *api.Instance) {
	m.ID = types.StringValue(i.Id.String())
	m.Name = types.StringValue(i.Name)
	m.CloudAccountID = types.StringValue(i.CloudAccountId.String())
	m.Region = types.StringValue(i.Region)
	m.VpcID = types.StringValue(i.Spec.Network.VpcId)
	m.Subnets = make([]subnetModel, len(i.Spec.Network.Subnets))
	for n, s := range i.Spec.Network.Subnets {
		m.Subnets[n] = subnetModel{AvailabilityZone: types.StringValue(s.AvailabilityZone), SubnetID: types.StringValue(s.SubnetId)}
	}
	if e := i.Spec.Network.S3GatewayEndpoint; e != nil {
		m.S3GatewayEndpoint = types.StringValue(string(*e))
	}
	m.Wal = types.StringValue(string(i.Spec.Wal.Type))
	m.Aku = types.Int64Value(int64(i.Spec.Aku))
	m.Fsx = nil
	if f := i.Spec.Fsx; f != nil {
		m.Fsx = &fsxModel{ThroughputMBps: types.Int64Value(int64(f.ThroughputMBps)), Count: types.Int64Value(int64(f.Count))}
	}
	m.BrokerVersion = types.StringValue(i.Spec.BrokerVersion)
	m.State = types.StringValue(string(i.State))
	m.BootstrapServers = types.StringPointerValue(i.Inventory.BootstrapServers)
	m.SpecVersion = types.Int64Value(int64(i.SpecVersion))
	m.CatalogVersion = types.Int64Value(int64(i.Spec.CatalogVersion))
	m.InstanceType = types.StringValue(i.Sizing.InstanceType)
	m.BrokerCount = types.Int64Value(int64(i.Sizing.BrokerCount))
	m.DeletionProtection = types.BoolValue(i.DeletionProtection)
}

// creation is the InstanceCreation the model asks for.
func (m *instanceModel) creation() (api.InstanceCreation, error) {
	var body api.InstanceCreation
	account, err := uuid.Parse(m.CloudAccountID.ValueString())
	if err != nil {
		return body, fmt.Errorf("cloud_account_id %q is not an id: %w", m.CloudAccountID.ValueString(), err)
	}
	body = api.InstanceCreation{
		Name:           m.Name.ValueString(),
		CloudAccountId: account,
		Region:         m.Region.ValueString(),
		Network:        api.NetworkSpec{VpcId: m.VpcID.ValueString()},
		Wal:            api.WalSpec{Type: api.WalType(m.Wal.ValueString())},
		Aku:            int(m.Aku.ValueInt64()),
		Fsx:            m.fsxSpec(),
	}
	if !m.DeletionProtection.IsUnknown() && !m.DeletionProtection.IsNull() {
		body.DeletionProtection = m.DeletionProtection.ValueBoolPointer()
	}
	if !m.S3GatewayEndpoint.IsUnknown() && !m.S3GatewayEndpoint.IsNull() {
		mode := api.S3GatewayEndpointMode(m.S3GatewayEndpoint.ValueString())
		body.Network.S3GatewayEndpoint = &mode
	}
	if !m.BrokerVersion.IsUnknown() && !m.BrokerVersion.IsNull() {
		body.BrokerVersion = m.BrokerVersion.ValueStringPointer()
	}
	for _, s := range m.Subnets {
		body.Network.Subnets = append(body.Network.Subnets,
			api.SubnetPlacement{AvailabilityZone: s.AvailabilityZone.ValueString(), SubnetId: s.SubnetID.ValueString()})
	}
	return body, nil
}

func (m *instanceModel) fsxSpec() *api.FsxSpec {
	if m.Fsx == nil {
		return nil
	}
	return &api.FsxSpec{ThroughputMBps: api.FsxThroughput(m.Fsx.ThroughputMBps.ValueInt64()), Count: int(m.Fsx.Count.ValueInt64())}
}
