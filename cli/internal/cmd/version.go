package cmd

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

// versions is what 'keel version' prints: the CLI's version and the API version the server serves.
type versions struct {
	Client string        `json:"client"`
	Server serverVersion `json:"server"`
}

type serverVersion struct {
	URL        string `json:"url"`
	APIVersion string `json:"apiVersion,omitempty"`
	Error      string `json:"error,omitempty"`
}

func (a *app) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Show the CLI's version and the server's API version",
		Example: "  keel version\n  keel version -o json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := versions{Client: Version, Server: serverVersion{URL: client.NormalizeAPIURL(a.settings.APIURL)}}
			apiVersion, serverErr := fetchAPIVersion(cmd.Context(), a.settings.APIURL)
			v.Server.APIVersion = apiVersion
			if serverErr != nil {
				v.Server.Error = serverErr.Error()
			}
			body, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if err := a.print(body, func(t *output.Table) {
				t.Row("CLIENT", v.Client)
				t.Row("SERVER", v.Server.URL)
				t.Row("API VERSION", first(v.Server.APIVersion, "unknown"))
			}); err != nil {
				return err
			}
			return serverErr
		},
	}
}

// fetchAPIVersion reads info.version of the contract the server serves (no sign-in needed).
func fetchAPIVersion(ctx context.Context, apiURL string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	url := client.NormalizeAPIURL(apiURL) + "/openapi.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%s answered %s", url, resp.Status)
	}
	var contract struct {
		Info struct {
			Version string `json:"version"`
		} `json:"info"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&contract); err != nil {
		return "", fmt.Errorf("%s is not the API's contract: %w", url, err)
	}
	return contract.Info.Version, nil
}
