package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"keel.dev/cli/auth"
	"keel.dev/cli/internal/config"
)

func (a *app) loginCommand() *cobra.Command {
	var clientID, clientSecret string
	cmd := &cobra.Command{
		Use:   "login",
		Short: "Sign in: as yourself in a browser (device code), or as a service account",
		Long: `Without --client-secret: the OAuth 2.0 device authorization grant. keel prints a URL and a code,
you approve in any browser, and keel stores the tokens (refreshed when they expire) in
~/.config/keel/credentials.yaml, readable by you only.

With --client-id and --client-secret: a service account (client credentials); the secret is stored
the same way and a token is fetched whenever one is needed.

The profile (--profile, default: the current one) also keeps --api-url, --issuer and --org when given.`,
		Example: `  keel login
  keel login --profile prod --api-url https://keel.example.com/api/v1 --issuer https://id.example.com/realms/byoc
  keel login --client-id keel-automation-demo --client-secret keel-automation-demo-secret`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.saveProfile(); err != nil {
				return err
			}
			id := first(clientID, a.settings.ClientID)
			c := auth.Client{Issuer: a.settings.Issuer, ID: id, Secret: clientSecret}
			if clientSecret != "" {
				if _, err := auth.ClientCredentials(cmd.Context(), c).Token(); err != nil {
					return err
				}
				if err := a.storeCredential(config.Credential{ClientID: id, ClientSecret: clientSecret}); err != nil {
					return err
				}
			} else {
				tok, err := auth.DeviceLogin(cmd.Context(), c, a.showDeviceCode)
				if err != nil {
					return err
				}
				if err := a.storeTokens(id, tok); err != nil {
					return err
				}
			}
			return a.greet(cmd)
		},
	}
	cmd.Flags().StringVar(&clientID, "client-id", "", "the OAuth client: a service account's id, or the CLI's client (default "+auth.DefaultClientID+")")
	cmd.Flags().StringVar(&clientSecret, "client-secret", "", "the service account's secret (client credentials)")
	return cmd
}

func (a *app) showDeviceCode(uri, complete, code string, expires time.Time) {
	fmt.Fprintf(a.errOut, "To sign in, open %s\n", first(complete, uri))
	fmt.Fprintf(a.errOut, "or go to %s and enter the code %s\n", uri, code)
	if !expires.IsZero() {
		fmt.Fprintf(a.errOut, "Waiting for approval (the code expires in %s)…\n", time.Until(expires).Round(time.Second))
	}
}

// saveProfile keeps the settings given as flags in the profile, and makes it the current one when there is none.
func (a *app) saveProfile() error {
	file, err := config.Load()
	if err != nil {
		return err
	}
	p := file.Profiles[a.settings.profileName]
	p.APIURL = first(a.apiURL, p.APIURL)
	p.Issuer = first(a.issuer, p.Issuer)
	p.Organization = first(a.org, p.Organization)
	p.Output = first(a.format, p.Output)
	file.Profiles[a.settings.profileName] = p
	if file.CurrentProfile == "" {
		file.CurrentProfile = a.settings.profileName
	}
	return file.Save()
}

// greet checks the new credential against the API and says who it is.
func (a *app) greet(cmd *cobra.Command) error {
	c, err := a.client(cmd.Context())
	if err != nil {
		return err
	}
	r, err := c.GetCurrentOrganizationWithResponse(cmd.Context(), nil)
	if err != nil {
		return err
	}
	o := r.JSON200
	fmt.Fprintf(a.errOut, "Signed in as %s, %s in %s (profile %s).\n", o.User.Username, o.Role, o.Slug, a.settings.profileName)
	return nil
}

func (a *app) logoutCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "logout",
		Short:   "Forget the profile's stored credential",
		Example: "  keel logout\n  keel logout --profile prod",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			creds, err := config.LoadCredentials()
			if err != nil {
				return err
			}
			delete(creds.Profiles, a.settings.profileName)
			if err := creds.Save(); err != nil {
				return err
			}
			fmt.Fprintf(a.errOut, "Signed out of profile %s.\n", a.settings.profileName)
			return nil
		},
	}
}
