// Package client connects the generated API client to a Keel control plane: bearer tokens, the
// organization header, problem documents as Go errors and waiting on operations. The CLI and the
// Terraform provider both use it, so they talk to the API in one way.
package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"keel.dev/cli/api"
)

// DefaultAPIURL is the API of a local run (./dev up).
const DefaultAPIURL = "http://localhost:8080/api/v1"

// Config says which control plane to call, as whom and in which organization.
type Config struct {
	// APIURL is the API's base URL; a URL without a path gets /api/v1.
	APIURL string
	// Tokens supplies the bearer token of every request.
	Tokens oauth2.TokenSource
	// Organization is the slug sent as X-Organization; empty means the caller's first membership.
	Organization string
	UserAgent    string
}

// New returns a client whose every non-2xx answer is an error: a *Problem for problem documents.
func New(cfg Config) (*api.ClientWithResponses, error) {
	base := NormalizeAPIURL(cfg.APIURL)
	doer := &problemDoer{next: &http.Client{
		Timeout:   60 * time.Second,
		Transport: &oauth2.Transport{Source: cfg.Tokens, Base: http.DefaultTransport},
	}}
	return api.NewClientWithResponses(base, api.WithHTTPClient(doer),
		api.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			if cfg.Organization != "" {
				req.Header.Set("X-Organization", cfg.Organization)
			}
			if cfg.UserAgent != "" {
				req.Header.Set("User-Agent", cfg.UserAgent)
			}
			return nil
		}))
}

// NormalizeAPIURL gives a bare host URL the API's path and drops a trailing slash.
func NormalizeAPIURL(raw string) string {
	if raw == "" {
		raw = DefaultAPIURL
	}
	raw = strings.TrimRight(raw, "/")
	if rest, ok := strings.CutPrefix(raw, "http://"); ok && !strings.Contains(rest, "/") {
		return raw + "/api/v1"
	}
	if rest, ok := strings.CutPrefix(raw, "https://"); ok && !strings.Contains(rest, "/") {
		return raw + "/api/v1"
	}
	return raw
}

// IdempotencyKey is what every POST, PATCH and DELETE sends: a fresh Idempotency-Key unless one is given,
// so that a retried request is never applied twice.
func IdempotencyKey(given string) *string {
	if given != "" {
		return &given
	}
	key := newKey()
	return &key
}

// ETag returns the ETag header of a response, the instance's spec version for If-Match.
func ETag(resp *http.Response) string {
	if resp == nil {
		return ""
	}
	return resp.Header.Get("ETag")
}

// Quote turns a spec version given as 3 into the entity tag "3"; a quoted value is kept.
func Quote(etag string) string {
	if strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, `W/"`) {
		return etag
	}
	return fmt.Sprintf("%q", etag)
}
