package main_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolden walks a service account through the API's resources with the real binary, comparing each
// answer in table, json and yaml, and each kind of error, with testdata/*.golden.
func TestGolden(t *testing.T) {
	s := newSession(t)
	golden(t, "login-service-account", s.keel("login", "--client-id", "keel-automation-demo", "--client-secret", "keel-automation-demo-secret").mustSucceed(t))
	info, err := os.Stat(filepath.Join(s.config, "keel", "credentials.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("credentials.yaml has mode %v, want 0600", info.Mode().Perm())
	}

	for _, format := range []string{"table", "json", "yaml"} {
		golden(t, "organizations-me-"+format, s.keel("organizations", "me", "-o", format).mustSucceed(t))
	}
	golden(t, "error-not-a-member", s.keel("organizations", "me", "--org", "globex"))
	// Before any instance runs: nothing used yet, so the figures are the same every run.
	golden(t, "billing-budget-get", s.keel("billing", "budget", "get", "-o", "table").mustSucceed(t))
	golden(t, "error-budget-forbidden", s.keel("billing", "budget", "set", "--max-aku-per-instance", "12"))

	golden(t, "cloud-accounts-register", s.keel("cloud-accounts", "register", "--name", "demo", "--aws-account-id", "000000000000",
		"--role-arn", "arn:aws:iam::000000000000:role/KeelDemo", "--region", "us-east-1", "-o", "table").mustSucceed(t))
	golden(t, "cloud-accounts-list", s.keel("cloud-accounts", "list", "-o", "table").mustSucceed(t))
	golden(t, "cloud-accounts-networks", s.keel("cloud-accounts", "networks", "demo", "--region", "us-east-1", "-o", "table").mustSucceed(t))
	var account struct{ ID string }
	decode(t, s.keel("cloud-accounts", "get", "demo").mustSucceed(t).stdout, &account)
	s.env = append(s.env, "ACCOUNT_ID="+account.ID)

	golden(t, "error-validation", s.keel("instances", "create", "-f", "testdata/specs/invalid.json"))
	golden(t, "instances-plan-create-flags", s.keel("instances", "plan", "--name", "flags", "--cloud-account", "demo",
		"--region", "us-east-1", "--vpc", "vpc-0a1b2c3d4e5f67890", "--subnet", "us-east-1a=subnet-00000000000000000",
		"--wal", "ebs", "--aku", "3", "-o", "yaml").mustSucceed(t))
	golden(t, "instances-plan-create", s.keel("instances", "plan", "-f", "testdata/specs/s3.yaml", "-o", "table").mustSucceed(t))
	golden(t, "error-s3-gateway-endpoint", s.keel("instances", "create", "-f", "testdata/specs/s3.yaml", "--s3-gateway-endpoint", "existing"))
	created := s.keel("instances", "create", "-f", "testdata/specs/s3.yaml", "--s3-gateway-endpoint", "require-existing", "--wait", "-o", "table").mustSucceed(t)
	golden(t, "instances-create-wait", created)
	if !strings.Contains(created.stderr, ": SUCCEEDED\nBootstrap servers b0.orders-") {
		t.Errorf("--wait showed no progress ending in SUCCEEDED, then the bootstrap servers:\n%s", created.stderr)
	}
	golden(t, "error-name-taken", s.keel("instances", "create", "-f", "testdata/specs/s3.yaml"))
	for _, format := range []string{"table", "json", "yaml"} {
		golden(t, "instances-list-"+format, s.keel("instances", "list", "-o", format).mustSucceed(t))
		golden(t, "instances-get-"+format, s.keel("instances", "get", "orders", "-o", format).mustSucceed(t))
	}

	golden(t, "instances-plan-update", s.keel("instances", "plan", "orders", "--aku", "6", "-o", "table").mustSucceed(t))
	golden(t, "instances-update-wait", s.keel("instances", "update", "orders", "--aku", "6", "--wait", "-o", "json").mustSucceed(t))
	golden(t, "error-stale-if-match", s.keel("instances", "update", "orders", "--aku", "9", "--if-match", "1"))
	golden(t, "error-nothing-to-change", s.keel("instances", "update", "orders"))
	golden(t, "instances-update-deletion-protection", s.keel("instances", "update", "orders", "--deletion-protection", "-o", "table").mustSucceed(t))
	golden(t, "error-deletion-protected", s.keel("instances", "delete", "orders", "--yes"))
	golden(t, "instances-update-deletion-protection-off", s.keel("instances", "update", "orders", "--deletion-protection=false", "-o", "json").mustSucceed(t))
	golden(t, "instances-plan-delete", s.keel("instances", "plan", "orders", "--delete", "-o", "table").mustSucceed(t))
	golden(t, "error-purge-forbidden", s.keel("instances", "delete", "orders", "--purge", "--yes"))
	golden(t, "error-unknown-instance", s.keel("instances", "get", "nosuch"))
	golden(t, "instances-cost", s.keel("instances", "cost", "orders", "-o", "table").mustSucceed(t))
	golden(t, "instances-cost-assumptions", s.keel("instances", "cost", "orders", "--purchase-option", "reserved-1-year-no-upfront",
		"--follower-fetching", "--compression-ratio", "4", "-o", "table").mustSucceed(t))
	golden(t, "instances-metrics", s.keel("instances", "metrics", "orders", "-o", "table").mustSucceed(t))
	golden(t, "operations-list", s.keel("operations", "list", "--instance", "orders", "-o", "table").mustSucceed(t))
	golden(t, "estimates", s.keel("estimates", "--region", "us-east-1", "--zones", "3", "--wal", "fswal", "--aku", "6",
		"--fsx-throughput", "384", "--fsx-count", "1", "-o", "table").mustSucceed(t))
	golden(t, "estimates-assumptions-json", s.keel("estimates", "--region", "us-east-1", "--zones", "3", "--wal", "s3", "--aku", "6",
		"--purchase-option", "reserved-1-year-no-upfront", "--follower-fetching", "--compression-ratio", "4", "-o", "json").mustSucceed(t))
	golden(t, "error-purchase-option", s.keel("estimates", "--region", "us-east-1", "--zones", "3", "--wal", "s3", "--aku", "6",
		"--purchase-option", "reserved"))
	golden(t, "error-compression-ratio", s.keel("estimates", "--region", "us-east-1", "--zones", "3", "--wal", "s3", "--aku", "6",
		"--compression-ratio", "25"))
	golden(t, "sizing-catalog", s.keel("sizing", "catalog", "-o", "table").mustSucceed(t))

	failed := s.keel("instances", "create", "-f", "testdata/specs/s3.yaml", "--name", "fail-at-launch-brokers-x", "--wait", "-o", "json")
	golden(t, "error-operation-failed", failed)
	if failed.code != 5 {
		t.Errorf("a FAILED operation exited %d, want 5", failed.code)
	}
	golden(t, "error-delete-unconfirmed", s.keel("instances", "delete", "orders"))
	golden(t, "error-delete-mistyped", s.keelAtTerminal("order\n", "instances", "delete", "orders"))
	deleted := s.keelAtTerminal("orders\n", "instances", "delete", "orders", "-o", "json")
	golden(t, "instances-delete-confirmed", deleted.mustSucceed(t))
	op := struct{ ID string }{uuidPattern.FindString(deleted.stdout)}
	golden(t, "error-wait-timeout", s.keel("operations", "wait", op.ID, "--timeout", "1ns"))
	golden(t, "operations-wait", s.keel("operations", "wait", op.ID, "-o", "yaml").mustSucceed(t))
	golden(t, "instances-list-deleted", s.keel("instances", "list", "--state", "DELETED", "-o", "table").mustSucceed(t))
	golden(t, "audit-list", s.keel("audit", "list", "--resource-type", "cloud-account", "-o", "table").mustSucceed(t))

	var usage struct{ AkuHours *float64 }
	decode(t, s.keel("billing", "usage").mustSucceed(t).stdout, &usage)
	if usage.AkuHours == nil {
		t.Error("billing usage has no akuHours")
	}
}

// TestSettings checks the order settings apply in: profile, then KEEL_* variables, then flags.
func TestSettings(t *testing.T) {
	s := newSession(t)
	s.keel("login", "--profile", "ci", "--client-id", "keel-automation-demo", "--client-secret", "keel-automation-demo-secret",
		"--org", "acme", "-o", "yaml").mustSucceed(t)
	golden(t, "profile-list", s.keel("profile", "list", "-o", "table").mustSucceed(t))
	golden(t, "profile-show", s.keel("profile", "show").mustSucceed(t))
	s.env = append(s.env, "KEEL_ORG=globex", "KEEL_OUTPUT=json")
	golden(t, "profile-show-env", s.keel("profile", "show").mustSucceed(t))
	golden(t, "profile-show-flags", s.keel("profile", "show", "--org", "initech", "-o", "table").mustSucceed(t))
	golden(t, "error-unknown-profile", s.keel("profile", "use", "nosuch"))
	golden(t, "version", s.keel("version", "-o", "json").mustSucceed(t))
	golden(t, "error-not-signed-in", newSession(t).keel("instances", "list"))

	// An access token from the environment, and --org choosing among the caller's organizations.
	multi := newSession(t)
	multi.env = append(multi.env, "KEEL_TOKEN="+passwordToken(t, "multi-org", "keel-demo"))
	golden(t, "organizations-me-org-flag", multi.keel("organizations", "me", "--org", "globex", "-o", "table").mustSucceed(t))
	for _, shell := range []string{"bash", "zsh", "fish"} {
		if out := s.keel("completion", shell).mustSucceed(t).stdout; !strings.Contains(out, "keel") {
			t.Errorf("completion %s printed no script for keel", shell)
		}
	}
}

func decode(t *testing.T, s string, into any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), into); err != nil {
		t.Fatalf("not JSON (%v):\n%s", err, s)
	}
}

// passwordToken signs a demo user in with the password grant the realm's CLI client allows for scripts.
func passwordToken(t *testing.T, username, password string) string {
	t.Helper()
	resp, err := http.PostForm(backend.Issuer+"/protocol/openid-connect/token", url.Values{
		"grant_type": {"password"}, "client_id": {"keel-cli"}, "username": {username}, "password": {password}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var token struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&token); err != nil || token.AccessToken == "" {
		t.Fatalf("no token for %s (%s): %v", username, resp.Status, err)
	}
	return token.AccessToken
}
