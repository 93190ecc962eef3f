// Package provider is the Keel Terraform provider: cloud accounts, instances and their Kafka users, ACLs and
// topics as resources, the sizing catalog, a cloud account's networks and an instance as data sources, over
// the generated API client.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"golang.org/x/oauth2"

	"keel.dev/cli/api"
	"keel.dev/cli/auth"
	"keel.dev/cli/client"
)

// Address is the provider's source address.
const Address = "registry.terraform.io/keel-dev/keel"

// New returns the provider factory the plugin server calls.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &keelProvider{version: version} }
}

type keelProvider struct {
	version string
}

type providerModel struct {
	APIURL       types.String `tfsdk:"api_url"`
	Issuer       types.String `tfsdk:"issuer"`
	Organization types.String `tfsdk:"organization"`
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	Token        types.String `tfsdk:"token"`
}

func (p *keelProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "keel"
	resp.Version = p.version
}

func (p *keelProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages Keel cloud accounts, diskless Kafka instances and their Kafka users, ACLs and topics. Every setting can also come from a " +
			"`KEEL_*` environment variable; the configuration wins over the environment. Authenticate with a service " +
			"account (`client_id` and `client_secret`, the client credentials grant) or an access token (`token`).",
		Attributes: map[string]schema.Attribute{
			"api_url": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The control plane's API URL, e.g. `https://keel.example.com/api/v1`. Environment: `KEEL_API_URL`; default `" + client.DefaultAPIURL + "`."},
			"issuer": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The OpenID Connect issuer that signs the API's tokens. Environment: `KEEL_ISSUER`; default `" + auth.DefaultIssuer + "`."},
			"organization": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The organization (slug) to act in. Environment: `KEEL_ORG`; default: the caller's first membership."},
			"client_id": schema.StringAttribute{Optional: true,
				MarkdownDescription: "A service account's client id. Environment: `KEEL_CLIENT_ID`."},
			"client_secret": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "The service account's secret. Environment: `KEEL_CLIENT_SECRET`."},
			"token": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "An access token, used instead of a service account. Environment: `KEEL_TOKEN`."},
		},
	}
}

func (p *keelProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	setting := func(v types.String, env, fallback string) string {
		if s := v.ValueString(); s != "" {
			return s
		}
		if s := os.Getenv(env); s != "" {
			return s
		}
		return fallback
	}
	issuer := setting(cfg.Issuer, "KEEL_ISSUER", auth.DefaultIssuer)
	clientID := setting(cfg.ClientID, "KEEL_CLIENT_ID", "")
	secret := setting(cfg.ClientSecret, "KEEL_CLIENT_SECRET", "")
	var tokens oauth2.TokenSource
	switch token := setting(cfg.Token, "KEEL_TOKEN", ""); {
	case token != "":
		tokens = oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token})
	case clientID != "" && secret != "":
		// The provider outlives many requests: a background context, not the Configure call's.
		tokens = auth.ClientCredentials(context.Background(), auth.Client{Issuer: issuer, ID: clientID, Secret: secret})
	default:
		resp.Diagnostics.AddError("No Keel credentials",
			"Set client_id and client_secret (or KEEL_CLIENT_ID and KEEL_CLIENT_SECRET) for a service account, or token (KEEL_TOKEN).")
		return
	}
	c, err := client.New(client.Config{
		APIURL:       setting(cfg.APIURL, "KEEL_API_URL", client.DefaultAPIURL),
		Tokens:       tokens,
		Organization: setting(cfg.Organization, "KEEL_ORG", ""),
		UserAgent:    "terraform-provider-keel/" + p.version,
	})
	if err != nil {
		resp.Diagnostics.AddError("Invalid Keel API URL", err.Error())
		return
	}
	resp.ResourceData = c
	resp.DataSourceData = c
}

func (p *keelProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newCloudAccountResource, newInstanceResource, newKafkaUserResource, newKafkaACLResource, newKafkaTopicResource}
}

func (p *keelProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newSizingCatalogDataSource, newCloudAccountNetworksDataSource, newInstanceDataSource}
}

// configured is the API client Configure made, for resources and data sources.
func configured(data any) *api.ClientWithResponses {
	c, _ := data.(*api.ClientWithResponses)
	return c
}

// resourceBase is what every resource shares: the API client and its type name.
type resourceBase struct {
	api  *api.ClientWithResponses
	name string
}

func (r *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.name
}

func (r *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	r.api = configured(req.ProviderData)
}
