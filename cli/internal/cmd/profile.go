package cmd

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"keel.dev/cli/internal/config"
	"keel.dev/cli/internal/output"
)

func (a *app) profileCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Profiles: named control planes with their issuer, organization and output",
		Long: `Profiles live in ~/.config/keel/config.yaml; 'keel login --profile NAME --api-url … --issuer …' creates
one. KEEL_* environment variables override a profile's settings, and flags override both.`,
		Example: "  keel profile list\n  keel profile use prod\n  keel profile show",
	}
	cmd.AddCommand(a.profileList(), a.profileUse(), a.profileShow())
	return cmd
}

// profileView is a profile as list and show print it.
type profileView struct {
	Name         string `json:"name"`
	Current      bool   `json:"current"`
	APIURL       string `json:"apiUrl"`
	Issuer       string `json:"issuer"`
	ClientID     string `json:"clientId"`
	Organization string `json:"organization"`
	Output       string `json:"output"`
	Credential   string `json:"credential"`
}

func credentialKind(c config.Credential, ok bool) string {
	switch {
	case !ok:
		return "none"
	case c.ClientSecret != "":
		return "service account " + c.ClientID
	default:
		return "device login"
	}
}

func (a *app) profileList() *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   "List the profiles",
		Example: "  keel profile list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			file, err := config.Load()
			if err != nil {
				return err
			}
			creds, err := config.LoadCredentials()
			if err != nil {
				return err
			}
			views := []profileView{}
			for _, name := range file.Names() {
				p := file.Profiles[name]
				cred, ok := creds.Profiles[name]
				views = append(views, profileView{Name: name, Current: name == a.settings.profileName, APIURL: p.APIURL,
					Issuer: p.Issuer, ClientID: p.ClientID, Organization: p.Organization, Output: p.Output, Credential: credentialKind(cred, ok)})
			}
			body, err := json.Marshal(map[string]any{"items": views})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("CURRENT", "NAME", "API URL", "ORGANIZATION", "CREDENTIAL")
				for _, v := range views {
					current := ""
					if v.Current {
						current = "*"
					}
					t.Row(current, v.Name, v.APIURL, v.Organization, v.Credential)
				}
			})
		},
	}
}

func (a *app) profileUse() *cobra.Command {
	return &cobra.Command{
		Use:     "use NAME",
		Short:   "Make a profile the current one",
		Example: "  keel profile use prod",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			file, err := config.Load()
			if err != nil {
				return err
			}
			if _, ok := file.Profiles[args[0]]; !ok {
				return usagef("no profile %s; create it with 'keel login --profile %s --api-url URL --issuer URL'", args[0], args[0])
			}
			file.CurrentProfile = args[0]
			if err := file.Save(); err != nil {
				return err
			}
			fmt.Fprintf(a.errOut, "Profile %s is now the current one.\n", args[0])
			return nil
		},
	}
}

func (a *app) profileShow() *cobra.Command {
	return &cobra.Command{
		Use:     "show",
		Short:   "Show the settings in effect: the profile with KEEL_* variables and flags applied",
		Example: "  keel profile show\n  KEEL_ORG=globex keel profile show -o yaml",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			creds, err := config.LoadCredentials()
			if err != nil {
				return err
			}
			cred, ok := creds.Profiles[a.settings.profileName]
			credential := credentialKind(cred, ok)
			if os.Getenv("KEEL_TOKEN") != "" {
				credential = "KEEL_TOKEN"
			} else if os.Getenv("KEEL_CLIENT_SECRET") != "" {
				credential = "service account " + a.settings.ClientID + " (KEEL_CLIENT_SECRET)"
			}
			s := a.settings
			v := profileView{Name: s.profileName, Current: true, APIURL: s.APIURL, Issuer: s.Issuer, ClientID: s.ClientID,
				Organization: s.Organization, Output: s.Output, Credential: credential}
			body, err := json.Marshal(v)
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("PROFILE", v.Name)
				t.Row("API URL", v.APIURL)
				t.Row("ISSUER", v.Issuer)
				t.Row("CLIENT ID", v.ClientID)
				t.Row("ORGANIZATION", first(v.Organization, "(your first membership)"))
				t.Row("OUTPUT", v.Output)
				t.Row("CREDENTIAL", v.Credential)
				if dir, err := config.Dir(); err == nil {
					t.Row("FILES", dir)
				}
			})
		},
	}
}
