package main_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"keel.dev/cli/testenv"
)

// The tests run the keel binary, built once, against the packaged control plane on the test stack with the
// no-cloud driver: the CLI's behaviour is the point here, not provisioning (the provider's tests provision
// into LocalStack).
var (
	keel    string
	backend *testenv.Backend
	update  = flag.Bool("update", false, "rewrite the golden files in testdata/ with the output seen")
)

func TestMain(m *testing.M) {
	flag.Parse()
	testenv.Main(m, func() (func(), error) {
		dir, err := os.MkdirTemp("", "keel-cli-test")
		if err != nil {
			return nil, err
		}
		teardown := func() { os.RemoveAll(dir) }
		if keel, err = testenv.Build(dir, "keel"); err != nil {
			return teardown, err
		}
		// No broker reports here, so the health and drift checks would only add a condition at a moment that
		// depends on timing: once at start (before any instance) is all they run.
		backend, err = testenv.Start(testenv.Options{Name: "cli", Driver: "no-cloud", Env: []string{
			"KEEL_PROVISIONING_NO_CLOUD_STEP_DELAY=50ms", "KEEL_HEALTH_INTERVAL=1h", "KEEL_DRIFT_INTERVAL=1h"}})
		if err != nil {
			return teardown, err
		}
		return func() { backend.Stop(); teardown() }, nil
	})
}

// session is one user's configuration directory.
type session struct {
	t      *testing.T
	config string
	env    []string
}

func newSession(t *testing.T) *session {
	return &session{t: t, config: t.TempDir()}
}

// result is what one run of the binary did.
type result struct {
	args           []string
	stdout, stderr string
	code           int
	config         string
}

// keel runs the binary with the session's configuration, the test backend and no other KEEL_* variable.
func (s *session) keel(args ...string) result {
	s.t.Helper()
	return s.keelWithInput("", args...)
}

func (s *session) keelWithInput(stdin string, args ...string) result {
	s.t.Helper()
	return s.exec(keel, stdin, args...)
}

func (s *session) exec(program, stdin string, args ...string) result {
	s.t.Helper()
	cmd := exec.Command(program, args...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.config, "XDG_CONFIG_HOME=" + s.config,
		"KEEL_API_URL=" + backend.APIURL, "KEEL_ISSUER=" + backend.Issuer}, s.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		s.t.Fatalf("keel %v: %v", args, err)
	}
	return result{args: args, stdout: stdout.String(), stderr: stderr.String(), code: code, config: s.config}
}

// keelAtTerminal runs the binary on a pseudo-terminal (util-linux script), typing input; the terminal
// echoes the input and merges stderr into stdout.
func (s *session) keelAtTerminal(input string, args ...string) result {
	s.t.Helper()
	r := s.exec("script", input, "-qec", keel+" "+strings.Join(args, " "), "/dev/null")
	r.args = args
	r.stdout = strings.ReplaceAll(r.stdout, "\r\n", "\n")
	return r
}

// mustSucceed fails the test unless the command exited 0.
func (r result) mustSucceed(t *testing.T) result {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("keel %s exited %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
	}
	return r
}

// normalizer replaces what differs from run to run with stable placeholders: ids are numbered in order
// of appearance in each file (so equal ids stay equal), times, external ids, generated passwords and
// certificates become fixed words, URLs of the test stack become <api> and <issuer>.
type normalizer struct {
	ids    map[string]string
	config string
}

var (
	uuidPattern       = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	timePattern       = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	externalIDPattern = regexp.MustCompile(`keel-[0-9a-f]{32}`)
	shortIDPattern    = regexp.MustCompile(`-[0-9a-f]{8}\b`)
	progressPattern   = regexp.MustCompile(`(?m)^(CREATE|UPDATE|DELETE|REPAIR) [0-9a-f]{8}: .*\n`)
	// A generated Kafka password: in a table, in JSON or YAML, and in the line that shows an admin's.
	passwordPattern = regexp.MustCompile(`(PASSWORD +|"password": "|password: |password )[A-Za-z0-9_-]{32,}`)
	pemPattern      = regexp.MustCompile(`(?s)-----BEGIN CERTIFICATE-----\n.*?-----END CERTIFICATE-----`)
)

func (n *normalizer) apply(s string) string {
	s = passwordPattern.ReplaceAllString(s, "${1}<password>")
	s = pemPattern.ReplaceAllString(s, "<certificate>")
	s = strings.ReplaceAll(s, n.config, "<config>")
	s = strings.ReplaceAll(s, backend.APIURL, "<api>")
	s = strings.ReplaceAll(s, backend.Issuer, "<issuer>")
	s = externalIDPattern.ReplaceAllString(s, "<external-id>")
	s = timePattern.ReplaceAllString(s, "<time>")
	for _, id := range uuidPattern.FindAllString(s, -1) {
		if _, ok := n.ids[id]; !ok {
			n.ids[id] = fmt.Sprintf("<id-%d>", len(n.ids)+1)
		}
	}
	for id, name := range n.ids {
		s = strings.ReplaceAll(s, id, name)
		// The no-cloud driver names resources after the id's first 8 characters.
		s = strings.ReplaceAll(s, id[:8], strings.TrimSuffix(name, ">")+"-short>")
	}
	// A plan names the resources of an instance not yet created after an id nobody sees.
	return shortIDPattern.ReplaceAllString(s, "-<unseen-id-short>")
}

// golden compares a run with testdata/<name>.golden: the command, its exit code, stdout and stderr, with
// progress lines left out (their number depends on timing).
func golden(t *testing.T, name string, r result) {
	t.Helper()
	n := &normalizer{ids: map[string]string{}, config: r.config}
	got := fmt.Sprintf("$ keel %s\nexit %d\n--- stdout\n%s--- stderr\n%s", n.apply(strings.Join(r.args, " ")), r.code,
		n.apply(r.stdout), n.apply(progressPattern.ReplaceAllString(r.stderr, "")))
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output seen (go test -update rewrites it):\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}
