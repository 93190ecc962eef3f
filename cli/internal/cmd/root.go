// Package cmd is the keel command tree: one file per noun, one cobra command per verb.
package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"
	"golang.org/x/term"

	"keel.dev/cli/api"
	"keel.dev/cli/auth"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/config"
	"keel.dev/cli/internal/output"
)

// Version is the CLI's version, set at build time (-ldflags "-X keel.dev/cli/internal/cmd.Version=…").
var Version = "dev"

// app is what every command shares: the streams, the global flags and the settings they resolve to.
type app struct {
	in          io.Reader
	out, errOut io.Writer

	profile, apiURL, issuer, org, format string

	settings settings
}

// settings are a profile with the environment and the flags applied over it, in that order.
type settings struct {
	profileName string
	config.Profile
}

// Execute runs the CLI with args and returns its exit code (see exitCode).
func Execute(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer) int {
	a := &app{in: in, out: out, errOut: errOut}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(out)
	root.SetErr(errOut)
	err := root.ExecuteContext(ctx)
	if err != nil {
		a.report(err)
	}
	return exitCode(err)
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "keel",
		Short: "Create and operate diskless Kafka instances in your AWS account",
		Long: `keel drives the Keel control plane's API: instances, their Kafka users, ACLs and topics, their
operations, cloud accounts, estimates, audit events and usage.

Settings come from the current profile in ~/.config/keel/config.yaml, overridden by KEEL_* environment
variables (KEEL_PROFILE, KEEL_API_URL, KEEL_ISSUER, KEEL_ORG, KEEL_OUTPUT, KEEL_CLIENT_ID), overridden
by flags. Credentials: what 'keel login' stored, or KEEL_CLIENT_ID with KEEL_CLIENT_SECRET (a service
account), or KEEL_TOKEN (an access token).

Output (-o): table on a terminal, json otherwise. json is the API's own document, unchanged; yaml is
the same document in YAML.

Exit codes: 0 success, 1 usage, 2 API error, 3 not signed in or not allowed, 4 timed out waiting,
5 operation failed or cancelled.`,
		Example: `  keel login
  keel instances list
  keel instances create -f cli/examples/s3.yaml --wait
  keel instances update orders --aku 6 --wait
  keel instances delete orders --yes --wait`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return a.resolve(cmd) },
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	flags := root.PersistentFlags()
	flags.StringVar(&a.profile, "profile", "", "profile to use (default: the current profile)")
	flags.StringVar(&a.apiURL, "api-url", "", "the control plane's API URL (default "+client.DefaultAPIURL+")")
	flags.StringVar(&a.issuer, "issuer", "", "the OpenID Connect issuer (default "+auth.DefaultIssuer+")")
	flags.StringVar(&a.org, "org", "", "the organization to act in (default: your first membership)")
	flags.StringVarP(&a.format, "output", "o", "", "output format: table, json or yaml")
	root.AddGroup(&cobra.Group{ID: "resources", Title: "Resources:"}, &cobra.Group{ID: "session", Title: "Sign-in and profiles:"})
	for _, c := range []*cobra.Command{a.instancesCommand(), a.usersCommand(), a.aclsCommand(), a.topicsCommand(), a.operationsCommand(), a.cloudAccountsCommand(),
		a.estimatesCommand(), a.sizingCommand(), a.auditCommand(), a.billingCommand(), a.organizationsCommand()} {
		c.GroupID = "resources"
		root.AddCommand(c)
	}
	for _, c := range []*cobra.Command{a.loginCommand(), a.logoutCommand(), a.profileCommand()} {
		c.GroupID = "session"
		root.AddCommand(c)
	}
	root.AddCommand(a.versionCommand())
	return root
}

// resolve applies the profile, then KEEL_* variables, then flags.
func (a *app) resolve(cmd *cobra.Command) error {
	file, err := config.Load()
	if err != nil {
		return err
	}
	s := settings{profileName: first(a.profile, os.Getenv("KEEL_PROFILE"), file.CurrentProfile, config.DefaultProfile)}
	s.Profile = file.Profiles[s.profileName]
	s.APIURL = first(a.apiURL, os.Getenv("KEEL_API_URL"), s.APIURL, client.DefaultAPIURL)
	s.Issuer = first(a.issuer, os.Getenv("KEEL_ISSUER"), s.Issuer, auth.DefaultIssuer)
	s.Organization = first(a.org, os.Getenv("KEEL_ORG"), s.Organization)
	s.ClientID = first(os.Getenv("KEEL_CLIENT_ID"), s.ClientID, auth.DefaultClientID)
	s.Output = first(a.format, os.Getenv("KEEL_OUTPUT"), s.Output)
	if s.Output == "" {
		s.Output = "json"
		if isTerminal(a.out) {
			s.Output = "table"
		}
	}
	if !slices.Contains(output.Formats, s.Output) {
		return usageError{fmt.Errorf("unknown output format %q: use one of %s", s.Output, strings.Join(output.Formats, ", "))}
	}
	a.settings = s
	return nil
}

// client is an API client signed in as the environment or the profile's stored credential says.
func (a *app) client(ctx context.Context) (*api.ClientWithResponses, error) {
	tokens, err := a.tokens(ctx)
	if err != nil {
		return nil, err
	}
	return client.New(client.Config{
		APIURL: a.settings.APIURL, Tokens: tokens, Organization: a.settings.Organization, UserAgent: "keel/" + Version,
	})
}

func (a *app) tokens(ctx context.Context) (oauth2.TokenSource, error) {
	if token := os.Getenv("KEEL_TOKEN"); token != "" {
		return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: token}), nil
	}
	if secret := os.Getenv("KEEL_CLIENT_SECRET"); secret != "" {
		return auth.ClientCredentials(ctx, auth.Client{Issuer: a.settings.Issuer, ID: a.settings.ClientID, Secret: secret}), nil
	}
	creds, err := config.LoadCredentials()
	if err != nil {
		return nil, err
	}
	cred, ok := creds.Profiles[a.settings.profileName]
	if !ok {
		return nil, fmt.Errorf("%w (profile %s)", auth.ErrLoginRequired, a.settings.profileName)
	}
	c := auth.Client{Issuer: a.settings.Issuer, ID: cred.ClientID, Secret: cred.ClientSecret}
	if cred.ClientSecret != "" {
		return auth.ClientCredentials(ctx, c), nil
	}
	tok := &oauth2.Token{AccessToken: cred.AccessToken, RefreshToken: cred.RefreshToken, Expiry: cred.Expiry}
	return auth.Refreshing(ctx, c, tok, func(t *oauth2.Token) {
		if err := a.storeTokens(cred.ClientID, t); err != nil {
			fmt.Fprintf(a.errOut, "Warning: the refreshed token could not be stored: %v\n", err)
		}
	})
}

// storeTokens keeps a person's tokens for the current profile.
func (a *app) storeTokens(clientID string, t *oauth2.Token) error {
	return a.storeCredential(config.Credential{ClientID: clientID, AccessToken: t.AccessToken, RefreshToken: t.RefreshToken, Expiry: t.Expiry})
}

func (a *app) storeCredential(cred config.Credential) error {
	creds, err := config.LoadCredentials()
	if err != nil {
		return err
	}
	creds.Profiles[a.settings.profileName] = cred
	return creds.Save()
}

// print writes an API answer in the chosen format; table renders it for people.
func (a *app) print(body []byte, table func(*output.Table)) error {
	return output.Printer{Format: a.settings.Output, Out: a.out}.Print(body, table)
}

// interactive says whether a person is at the terminal (for prompts and progress lines).
func (a *app) interactive() bool {
	return isTerminal(a.errOut) && isTerminal(a.in)
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// first is the first non-empty value.
func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// withClient runs fn with an API client.
func (a *app) withClient(fn func(*cobra.Command, []string, *api.ClientWithResponses) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		c, err := a.client(cmd.Context())
		if err != nil {
			return err
		}
		return fn(cmd, args, c)
	}
}

// withInstance runs fn with an API client and the instance the first argument names.
func (a *app) withInstance(fn func(*cobra.Command, *api.ClientWithResponses, *api.GetInstanceResponse) error) func(*cobra.Command, []string) error {
	return a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
		inst, err := a.instance(cmd.Context(), c, args[0])
		if err != nil {
			return err
		}
		return fn(cmd, c, inst)
	})
}

// withCloudAccount runs fn with an API client and the cloud account the first argument names.
func (a *app) withCloudAccount(fn func(*cobra.Command, *api.ClientWithResponses, *api.GetCloudAccountResponse) error) func(*cobra.Command, []string) error {
	return a.withClient(func(cmd *cobra.Command, args []string, c *api.ClientWithResponses) error {
		acc, err := a.cloudAccount(cmd.Context(), c, args[0])
		if err != nil {
			return err
		}
		return fn(cmd, c, acc)
	})
}
