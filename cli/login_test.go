package main_test

import (
	"bufio"
	"bytes"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// TestDeviceLogin signs in with the device authorization grant against the real Keycloak: keel login prints
// the verification URL, the test approves the code there as acme-admin (sign-in form, then consent), and
// keel stores tokens it later refreshes on its own.
func TestDeviceLogin(t *testing.T) {
	s := newSession(t)
	cmd := exec.Command(keel, "login")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.config, "XDG_CONFIG_HOME=" + s.config,
		"KEEL_API_URL=" + backend.APIURL, "KEEL_ISSUER=" + backend.Issuer}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var verification string
	var seen strings.Builder
	for verification == "" && lines.Scan() {
		seen.WriteString(lines.Text() + "\n")
		verification, _ = strings.CutPrefix(lines.Text(), "To sign in, open ")
	}
	if verification == "" || !strings.HasPrefix(verification, backend.Issuer+"/device?user_code=") {
		t.Fatalf("keel login printed no verification URL of the issuer:\n%s", seen.String())
	}

	approveDevice(t, verification, "acme-admin", "keel-demo")

	rest, _ := io.ReadAll(stderr)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("keel login: %v\n%s%s", err, seen.String(), rest)
	}
	if !strings.Contains(string(rest), "Signed in as acme-admin, admin in acme (profile default).") {
		t.Errorf("keel login did not say who signed in:\n%s", rest)
	}

	credentials := filepath.Join(s.config, "keel", "credentials.yaml")
	info, err := os.Stat(credentials)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("credentials.yaml has mode %v, want 0600", info.Mode().Perm())
	}
	stored := readCredential(t, credentials)
	if stored.RefreshToken == "" {
		t.Fatal("no refresh token stored")
	}

	// An expired access token is refreshed with the refresh token, and the new tokens are stored.
	stored.Expiry = time.Now().Add(-time.Minute)
	writeCredential(t, credentials, stored)
	me := s.keel("organizations", "me", "-o", "json").mustSucceed(t)
	if !strings.Contains(me.stdout, `"username": "acme-admin"`) {
		t.Errorf("organizations me after a refresh:\n%s", me.stdout)
	}
	if refreshed := readCredential(t, credentials); refreshed.AccessToken == stored.AccessToken || !refreshed.Expiry.After(time.Now()) {
		t.Errorf("the refreshed access token was not stored (expiry %v)", refreshed.Expiry)
	}
}

type credential struct {
	ClientID     string    `yaml:"client-id"`
	AccessToken  string    `yaml:"access-token"`
	RefreshToken string    `yaml:"refresh-token"`
	Expiry       time.Time `yaml:"expiry"`
}

func readCredential(t *testing.T, path string) credential {
	t.Helper()
	var file struct{ Profiles map[string]credential }
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	return file.Profiles["default"]
}

func writeCredential(t *testing.T, path string, c credential) {
	t.Helper()
	data, err := yaml.Marshal(map[string]any{"profiles": map[string]credential{"default": c}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

var formAction = regexp.MustCompile(`<form[^>]*action="([^"]+)"`)
var hiddenCode = regexp.MustCompile(`name="code" value="([^"]+)"`)

// approveDevice does in Keycloak's pages what a person does in a browser: open the verification URL, sign
// in, grant the CLI access.
func approveDevice(t *testing.T, verification, username, password string) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	page := fetch(t, browser, http.MethodGet, verification, nil)
	page = submit(t, browser, verification, page, url.Values{"username": {username}, "password": {password}})
	code := hiddenCode.FindStringSubmatch(page)
	if code == nil {
		t.Fatalf("no consent page after signing in:\n%s", page)
	}
	page = submit(t, browser, verification, page, url.Values{"code": {code[1]}, "accept": {"Yes"}})
	if !strings.Contains(page, "Device Login Successful") {
		t.Fatalf("Keycloak did not approve the device:\n%s", page)
	}
}

// submit posts values to the page's form.
func submit(t *testing.T, browser *http.Client, base, page string, values url.Values) string {
	t.Helper()
	m := formAction.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form on the page:\n%s", page)
	}
	action, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	if action, err = action.Parse(html.UnescapeString(m[1])); err != nil {
		t.Fatal(err)
	}
	return fetch(t, browser, http.MethodPost, action.String(), values)
}

func fetch(t *testing.T, browser *http.Client, method, target string, form url.Values) string {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s answered %s:\n%s", method, target, resp.Status, buf.String())
	}
	return buf.String()
}
