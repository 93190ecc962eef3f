package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"keel.dev/cli/api"
	"keel.dev/cli/auth"
	"keel.dev/cli/client"
	"keel.dev/cli/testenv"
)

// The acceptance tests run the machine's terraform with a dev_overrides CLI configuration pointing at the
// provider built here, against the packaged control plane provisioning into LocalStack and the FSx emulator
// (the AWS driver; no local runner, as no broker needs to run). They drive the demo example as a module.
var (
	providerDir string
	backend     *testenv.Backend
	customer    testenv.Customer
)

const (
	serviceAccount = "keel-automation-demo"
	serviceSecret  = "keel-automation-demo-secret"
)

func TestMain(m *testing.M) {
	testenv.Main(m, func() (func(), error) {
		if _, err := exec.LookPath("terraform"); err != nil {
			return nil, fmt.Errorf("the acceptance tests run the machine's terraform binary: %w", err)
		}
		dir, err := os.MkdirTemp("", "keel-provider-test")
		if err != nil {
			return nil, err
		}
		teardown := func() { os.RemoveAll(dir) }
		providerDir = dir
		if _, err := testenv.Build(dir, "terraform-provider-keel"); err != nil {
			return teardown, err
		}
		// Drift repair is off: the brokers never report (nothing runs them), and a repair would race the test's changes.
		backend, err = testenv.Start(testenv.Options{Name: "terraform", Driver: "aws", Env: []string{
			"KEEL_AWS_WAIT_SCALE=0.02", "KEEL_DRIFT_AUTO_REPAIR=false"}})
		if err != nil {
			return teardown, err
		}
		teardown = func() { backend.Stop(); os.RemoveAll(dir) }
		customer, err = backend.Onboard(context.Background())
		return teardown, err
	})
}

// TestInstanceLifecycle creates a cloud account and an instance, scales it, sees a change made outside
// Terraform in the plan, imports it, replaces it on a WAL change, adds an FSx file system and destroys
// everything, checking the control plane and, independently, what is left in the customer's account.
func TestInstanceLifecycle(t *testing.T) {
	w := newWorkspace(t)
	keel := apiClient(t)
	ctx := context.Background()

	w.configure(3, "S3", "null")
	w.mustApply()
	first := w.output("id")
	instance := getInstance(t, keel, first)
	if instance.State != api.InstanceStateRUNNING || instance.Spec.Aku != 3 || len(instance.Spec.Network.Subnets) != 3 {
		t.Fatalf("after create: %s with %d AKU in %d zones", instance.State, instance.Spec.Aku, len(instance.Spec.Network.Subnets))
	}
	if found := w.output("found_name"); found != "orders" {
		t.Errorf("data source keel_instance found %q", found)
	}
	if left := leftovers(t, first); len(left) == 0 {
		t.Fatal("LocalStack holds nothing of the new instance: the count of leftovers cannot be trusted")
	}
	w.mustHaveNoChanges()

	// Deletion protection changes in place, and a destroy fails with the API's message while it is on.
	w.protected = true
	w.configure(3, "S3", "null")
	if actions := w.plannedActions("module.demo.keel_instance.this"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("turning deletion protection on plans %v, want [update]", actions)
	}
	w.mustApply()
	if !getInstance(t, keel, first).DeletionProtection {
		t.Fatal("after apply the instance has no deletion protection")
	}
	if refused := w.mustFail("destroy", "-auto-approve", "-target", "module.demo.keel_instance.this"); !strings.Contains(refused,
		"has deletion protection on: turn it off first") {
		t.Errorf("destroying a protected instance did not fail with the API's message:\n%s", refused)
	}
	if instance = getInstance(t, keel, first); instance.State != api.InstanceStateRUNNING {
		t.Fatalf("after a refused destroy the instance is %s", instance.State)
	}
	w.protected = false
	w.configure(3, "S3", "null")
	w.mustApply()
	w.mustHaveNoChanges()

	// aku changes in place.
	w.configure(6, "S3", "null")
	if actions := w.plannedActions("module.demo.keel_instance.this"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("scaling plans %v, want [update]", actions)
	}
	w.mustApply()
	if instance = getInstance(t, keel, first); instance.Spec.Aku != 6 || instance.State != api.InstanceStateRUNNING {
		t.Fatalf("after scaling: %s with %d AKU", instance.State, instance.Spec.Aku)
	}

	// A change made in the console shows in the plan.
	scale(t, keel, instance, 9)
	change := w.plannedChange("module.demo.keel_instance.this")
	if !slices.Equal(change.Actions, []string{"update"}) || change.Before["aku"] != 9.0 || change.After["aku"] != 6.0 {
		t.Fatalf("after a change outside Terraform the plan is %v from aku %v to %v", change.Actions, change.Before["aku"], change.After["aku"])
	}
	w.configure(9, "S3", "null")
	w.mustHaveNoChanges()

	// Import by id: the state then matches the configuration but for the timeouts, which live only there.
	w.mustRun("state", "rm", "module.demo.keel_instance.this")
	w.mustRun("import", "module.demo.keel_instance.this", first)
	change = w.plannedChange("module.demo.keel_instance.this")
	for key, after := range change.After {
		if key != "timeouts" && fmt.Sprint(after) != fmt.Sprint(change.Before[key]) {
			t.Errorf("after import the plan changes %s from %v to %v", key, change.Before[key], after)
		}
	}
	w.mustApply()
	w.mustHaveNoChanges()

	// Changing the WAL type replaces the instance.
	w.configure(9, "FSWAL", "{ throughput_mbps = 768, count = 1 }")
	change = w.plannedChange("module.demo.keel_instance.this")
	if !slices.Equal(change.Actions, []string{"delete", "create"}) || !slices.ContainsFunc(change.ReplacePaths, func(p []any) bool {
		return len(p) == 1 && p[0] == "wal"
	}) {
		t.Fatalf("a WAL change plans %v (replace paths %v), want [delete create] because of wal", change.Actions, change.ReplacePaths)
	}
	w.mustApply()
	second := w.output("id")
	if second == first {
		t.Fatal("the WAL change kept the instance's id")
	}
	if instance = getInstance(t, keel, second); instance.Spec.Wal.Type != api.FSWAL || instance.State != api.InstanceStateRUNNING {
		t.Fatalf("the replacement is %s %s", instance.Spec.Wal.Type, instance.State)
	}
	// FSx file systems change in place too.
	w.configure(9, "FSWAL", "{ throughput_mbps = 768, count = 2 }")
	if actions := w.plannedActions("module.demo.keel_instance.this"); !slices.Equal(actions, []string{"update"}) {
		t.Fatalf("adding a file system plans %v, want [update]", actions)
	}
	w.mustApply()
	if instance = getInstance(t, keel, second); instance.Spec.Fsx == nil || instance.Spec.Fsx.Count != 2 {
		t.Fatalf("after adding a file system the spec has %+v", instance.Spec.Fsx)
	}
	if old := getInstance(t, keel, first); old.State != api.InstanceStateDELETED {
		t.Errorf("the replaced instance is %s, want DELETED", old.State)
	}
	if left := leftovers(t, first); len(left) > 0 {
		t.Errorf("the replaced instance left %v in LocalStack", left)
	}
	if old := getInstance(t, keel, first); old.DataRetainedUntil == nil {
		t.Error("the replaced instance's data bucket is not kept")
	}

	w.mustRun("destroy", "-auto-approve")
	if last := getInstance(t, keel, second); last.State != api.InstanceStateDELETED {
		t.Errorf("after destroy the instance is %s, want DELETED", last.State)
	}
	accounts, err := keel.ListCloudAccountsWithResponse(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(accounts.JSON200.Items) != 0 {
		t.Errorf("after destroy %d cloud accounts remain", len(accounts.JSON200.Items))
	}
	if left := leftovers(t, first, second); len(left) > 0 {
		t.Errorf("after destroy LocalStack still holds %v", left)
	}
}

// workspace is a Terraform working directory with the demo example as a module; protected is the
// instance's deletion protection in the configuration configure writes.
type workspace struct {
	t         *testing.T
	protected bool
	dir       string
	env       []string
}

func newWorkspace(t *testing.T) *workspace {
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "demo"), os.DirFS("examples/demo")); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(dir, "terraform.rc")
	config := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", "keel-dev/keel", providerDir)
	if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	w := &workspace{t: t, dir: dir, env: []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TF_CLI_CONFIG_FILE=" + rc, "TF_IN_AUTOMATION=1", "TF_INPUT=0",
		"CHECKPOINT_DISABLE=1", "KEEL_API_URL=" + backend.APIURL, "KEEL_ISSUER=" + backend.Issuer,
		"KEEL_CLIENT_ID=" + serviceAccount, "KEEL_CLIENT_SECRET=" + serviceSecret,
	}}
	w.configure(3, "S3", "null")
	// Installs the local module; the provider itself comes from dev_overrides, so there is no init.
	w.mustRun("get")
	return w
}

// configure writes the root module: the customer's cloud account, the demo example, and a data source.
func (w *workspace) configure(aku int, wal, fsx string) {
	w.t.Helper()
	config := fmt.Sprintf(`terraform {
  required_providers {
    keel = {
      source = "keel-dev/keel"
    }
  }
}

resource "keel_cloud_account" "customer" {
  name           = "tf-acceptance"
  aws_account_id = %q
  role_arn       = %q
  regions        = ["us-east-1"]
}

module "demo" {
  source           = "./demo"
  cloud_account_id = keel_cloud_account.customer.id
  vpc_id           = %q
  aku              = %d
  wal              = %q
  fsx              = %s

  deletion_protection = %t
}

data "keel_instance" "created" {
  id = module.demo.id
}

output "id" {
  value = module.demo.id
}

output "found_name" {
  value = data.keel_instance.created.name
}
`, strings.Split(customer.RoleArn, ":")[4], customer.RoleArn, customer.VpcID, aku, wal, fsx, w.protected)
	w.write(config)
}

// write replaces the root module's configuration.
func (w *workspace) write(config string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(config), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// terraform runs the machine's terraform in the workspace; it returns stdout and the exit code, and fails
// the test when terraform reports an error.
func (w *workspace) terraform(args ...string) (string, int) {
	w.t.Helper()
	stdout, stderr, code := w.run(args...)
	if code == 1 {
		w.t.Fatalf("terraform %s failed:\n%s\n%s", strings.Join(args, " "), stdout, stderr)
	}
	return stdout, code
}

// mustFail runs terraform expecting it to report an error; it returns what it printed.
func (w *workspace) mustFail(args ...string) string {
	w.t.Helper()
	stdout, stderr, code := w.run(args...)
	if code != 1 {
		w.t.Fatalf("terraform %s exited %d, want an error:\n%s", strings.Join(args, " "), code, stdout)
	}
	return stdout + stderr
}

func (w *workspace) run(args ...string) (stdout, stderr string, code int) {
	w.t.Helper()
	subcommand := 1
	if args[0] == "state" {
		subcommand = 2
	}
	cmd := exec.Command("terraform", slices.Insert(slices.Clone(args), subcommand, "-no-color")...)
	cmd.Dir, cmd.Env = w.dir, w.env
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		w.t.Fatalf("terraform %v: %v", args, err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

func (w *workspace) mustRun(args ...string) string {
	w.t.Helper()
	out, code := w.terraform(args...)
	if code != 0 {
		w.t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

func (w *workspace) mustApply() {
	w.t.Helper()
	w.mustRun("apply", "-auto-approve")
}

func (w *workspace) mustHaveNoChanges() {
	w.t.Helper()
	if out, code := w.terraform("plan", "-detailed-exitcode"); code != 0 {
		w.t.Fatalf("terraform plan found changes where there should be none:\n%s", out)
	}
}

func (w *workspace) output(name string) string {
	w.t.Helper()
	var value string
	if err := json.Unmarshal([]byte(w.mustRun("output", "-json", name)), &value); err != nil {
		w.t.Fatal(err)
	}
	return value
}

type plannedChange struct {
	Actions      []string       `json:"actions"`
	Before       map[string]any `json:"before"`
	After        map[string]any `json:"after"`
	ReplacePaths [][]any        `json:"replace_paths"`
}

// plannedChange is what terraform plan proposes for the resource at address.
func (w *workspace) plannedChange(address string) plannedChange {
	w.t.Helper()
	if _, code := w.terraform("plan", "-out", "plan.tfplan"); code != 0 {
		w.t.Fatalf("terraform plan exited %d", code)
	}
	var plan struct {
		ResourceChanges []struct {
			Address string        `json:"address"`
			Change  plannedChange `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", "plan.tfplan")), &plan); err != nil {
		w.t.Fatal(err)
	}
	for _, rc := range plan.ResourceChanges {
		if rc.Address == address {
			return rc.Change
		}
	}
	w.t.Fatalf("the plan has no change for %s", address)
	return plannedChange{}
}

func (w *workspace) plannedActions(address string) []string {
	return w.plannedChange(address).Actions
}

func apiClient(t *testing.T) *api.ClientWithResponses {
	tokens := auth.ClientCredentials(context.Background(), auth.Client{Issuer: backend.Issuer, ID: serviceAccount, Secret: serviceSecret})
	c, err := client.New(client.Config{APIURL: backend.APIURL, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func getInstance(t *testing.T, c *api.ClientWithResponses, id string) *api.Instance {
	t.Helper()
	r, err := c.GetInstanceWithResponse(context.Background(), uuid.MustParse(id), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r.JSON200
}

// scale changes the instance's AKU through the API, as the console does, and waits for it.
func scale(t *testing.T, c *api.ClientWithResponses, instance *api.Instance, aku int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err := c.UpdateInstanceWithApplicationMergePatchPlusJSONBodyWithResponse(ctx, instance.Id,
		&api.UpdateInstanceParams{IfMatch: client.Quote(fmt.Sprint(instance.SpecVersion))}, api.InstanceUpdate{Aku: &aku})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.WaitOperation(ctx, c, r.JSON202.Id, nil); err != nil {
		t.Fatal(err)
	}
}

// leftovers is what LocalStack and the FSx emulator still hold for the instances, by their own APIs.
func leftovers(t *testing.T, ids ...string) []string {
	t.Helper()
	python := filepath.Join(first(os.Getenv("KEEL_CACHE"), filepath.Join(os.Getenv("HOME"), ".cache/keel")), "localstack-4.13.1-venv/bin/python")
	cmd := exec.Command(python, append([]string{"testdata/leftovers.py"}, ids...)...)
	cmd.Env = append(os.Environ(), "KEEL_AWS_ENDPOINT="+backend.Stack["KEEL_AWS_ENDPOINT"], "KEEL_FSX_ENDPOINT="+backend.Stack["KEEL_FSX_ENDPOINT"])
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("leftovers.py: %v\n%s", err, exit.Stderr)
		}
		t.Fatal(err)
	}
	var found []string
	if err := json.Unmarshal(out, &found); err != nil {
		t.Fatal(err)
	}
	return found
}

func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}
