// Package auth gets tokens from the control plane's OpenID Connect issuer (Keycloak realm byoc): the
// device authorization grant for people, client credentials for service accounts, and refresh.
package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// DefaultIssuer is the realm of a local run (./dev up).
const DefaultIssuer = "http://localhost:8180/realms/byoc"

// DefaultClientID is the realm's public client for the CLI (device authorization grant).
const DefaultClientID = "keel-cli"

// ErrLoginRequired says there is no usable credential: sign in again.
var ErrLoginRequired = errors.New("not signed in")

// Endpoints are the issuer's token and device authorization endpoints, from its discovery document.
type Endpoints struct {
	Token               string `json:"token_endpoint"`
	DeviceAuthorization string `json:"device_authorization_endpoint"`
}

// Discover reads the issuer's OpenID Connect discovery document.
func Discover(ctx context.Context, issuer string) (Endpoints, error) {
	var ep Endpoints
	url := strings.TrimRight(issuer, "/") + "/.well-known/openid-configuration"
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return ep, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ep, fmt.Errorf("cannot reach the issuer %s: %w", issuer, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return ep, fmt.Errorf("the issuer %s has no discovery document (%s from %s)", issuer, resp.Status, url)
	}
	if err := json.NewDecoder(resp.Body).Decode(&ep); err != nil {
		return ep, fmt.Errorf("the discovery document of %s is not JSON: %w", issuer, err)
	}
	return ep, nil
}

// Client is one OAuth client of the issuer; Secret is empty for the public CLI client.
type Client struct {
	Issuer string
	ID     string
	Secret string
}

func (c Client) config(ep Endpoints) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     c.ID,
		ClientSecret: c.Secret,
		Endpoint:     oauth2.Endpoint{TokenURL: ep.Token, DeviceAuthURL: ep.DeviceAuthorization, AuthStyle: oauth2.AuthStyleInParams},
		Scopes:       []string{"openid"},
	}
}

// Prompt tells the user where to approve a device login.
type Prompt func(verificationURI, verificationURIComplete, userCode string, expires time.Time)

// DeviceLogin runs the device authorization grant (RFC 8628): it asks for a code, shows it with prompt and
// polls the token endpoint until the user approves, refuses, or the code expires.
func DeviceLogin(ctx context.Context, c Client, prompt Prompt) (*oauth2.Token, error) {
	ep, err := Discover(ctx, c.Issuer)
	if err != nil {
		return nil, err
	}
	if ep.DeviceAuthorization == "" {
		return nil, fmt.Errorf("the issuer %s does not offer the device authorization grant", c.Issuer)
	}
	cfg := c.config(ep)
	da, err := cfg.DeviceAuth(ctx)
	if err != nil {
		return nil, fmt.Errorf("the issuer refused a device login for client %s: %w", c.ID, err)
	}
	prompt(da.VerificationURI, da.VerificationURIComplete, da.UserCode, da.Expiry)
	if !da.Expiry.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, da.Expiry)
		defer cancel()
	}
	tok, err := cfg.DeviceAccessToken(ctx, da)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the code %s was not approved in time: %w", da.UserCode, ctx.Err())
		}
		return nil, fmt.Errorf("device login failed: %w", err)
	}
	return tok, nil
}

// ClientCredentials is a token source for a service account (client credentials grant). It reads the
// issuer's endpoints when the first token is needed.
func ClientCredentials(ctx context.Context, c Client) oauth2.TokenSource {
	return discovering(ctx, c.Issuer, func(ep Endpoints) oauth2.TokenSource {
		cc := clientcredentials.Config{ClientID: c.ID, ClientSecret: c.Secret, TokenURL: ep.Token, AuthStyle: oauth2.AuthStyleInParams}
		return cc.TokenSource(ctx)
	})
}

// Refreshing is a token source that refreshes tok with its refresh token when it expires, and reports
// each new token to saved (the issuer may rotate the refresh token).
func Refreshing(ctx context.Context, c Client, tok *oauth2.Token, saved func(*oauth2.Token)) (oauth2.TokenSource, error) {
	if tok.RefreshToken == "" && !tok.Valid() {
		return nil, ErrLoginRequired
	}
	return discovering(ctx, c.Issuer, func(ep Endpoints) oauth2.TokenSource {
		return &notifying{next: c.config(ep).TokenSource(ctx, tok), last: tok.AccessToken, saved: saved}
	}), nil
}

// discovering makes its token source from the issuer's endpoints on the first call, so that building a
// client costs nothing and a command can refuse bad input before any request.
func discovering(ctx context.Context, issuer string, make func(Endpoints) oauth2.TokenSource) oauth2.TokenSource {
	return &lazy{make: func() (oauth2.TokenSource, error) {
		ep, err := Discover(ctx, issuer)
		if err != nil {
			return nil, err
		}
		return make(ep), nil
	}}
}

type lazy struct {
	once sync.Once
	make func() (oauth2.TokenSource, error)
	ts   oauth2.TokenSource
	err  error
}

func (l *lazy) Token() (*oauth2.Token, error) {
	l.once.Do(func() { l.ts, l.err = l.make() })
	if l.err != nil {
		return nil, l.err
	}
	return l.ts.Token()
}

type notifying struct {
	next  oauth2.TokenSource
	last  string
	saved func(*oauth2.Token)
}

func (n *notifying) Token() (*oauth2.Token, error) {
	tok, err := n.next.Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("%w: the session ended (%s)", ErrLoginRequired, re.ErrorCode)
		}
		return nil, err
	}
	if tok.AccessToken != n.last {
		n.last = tok.AccessToken
		n.saved(tok)
	}
	return tok, nil
}
