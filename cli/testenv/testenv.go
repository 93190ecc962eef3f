// Package testenv runs the packaged control plane (backend/target/keel-backend.jar) on the test stack
// (scripts/stack start --env test) for the CLI's and the Terraform provider's tests: on a free port, with
// a fresh database of its own, and the provisioning driver the tests need.
package testenv

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Options say how to run the backend.
type Options struct {
	// Name names the database (keel_<name>) and the log file (.local/test/<name>-backend.log).
	Name string
	// Driver is the provisioning driver: "no-cloud", or "aws" for LocalStack and the FSx emulator.
	Driver string
	// Env is added to the backend's environment (NAME=value).
	Env []string
}

// Backend is a running control plane.
type Backend struct {
	RepoRoot string
	// APIURL is the API's base URL (…/api/v1).
	APIURL string
	// Issuer is the test stack's Keycloak realm.
	Issuer string
	// Stack is the test stack's environment (.local/test/env).
	Stack map[string]string
	Log   string

	cmd    *exec.Cmd
	exited chan error
}

// Start starts the backend and waits until it is ready.
func Start(opts Options) (*Backend, error) {
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	envFile := first(os.Getenv("KEEL_TEST_STACK_ENV"), filepath.Join(root, ".local/test/env"))
	stack, err := readEnv(envFile)
	if err != nil {
		return nil, fmt.Errorf("no test stack (%w): start it with scripts/stack start --env test", err)
	}
	jar := first(os.Getenv("KEEL_BACKEND_JAR"), filepath.Join(root, "backend/target/keel-backend.jar"))
	if _, err := os.Stat(jar); err != nil {
		return nil, fmt.Errorf("no %s: build it with mvn -DskipTests package", jar)
	}
	dbURL, err := freshDatabase(stack, "keel_"+opts.Name)
	if err != nil {
		return nil, err
	}
	port, err := freePort(root)
	if err != nil {
		return nil, err
	}
	b := &Backend{
		RepoRoot: root,
		APIURL:   fmt.Sprintf("http://localhost:%d/api/v1", port),
		Issuer:   stack["KEEL_ISSUER_URI"],
		Stack:    stack,
		Log:      filepath.Join(root, ".local/test", opts.Name+"-backend.log"),
	}
	log, err := os.Create(b.Log)
	if err != nil {
		return nil, err
	}
	defer log.Close()
	java := filepath.Join(first(os.Getenv("KEEL_JAVA_HOME"), "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin/java")
	// The backend's test fixtures, beside the jar, not in it: the no-cloud driver, whose machines' broker agents it
	// plays, and the agents played for machines in LocalStack, where no broker runs either. A create, scale or repair
	// ends once its brokers report serving.
	fixtures := filepath.Join(root, "backend/target/test-fixtures")
	b.cmd = exec.Command(java, "-Dloader.path="+fixtures, "-cp", jar, "org.springframework.boot.loader.launch.PropertiesLauncher")
	b.cmd.Env = append(os.Environ(), "SERVER_PORT="+fmt.Sprint(port), "KEEL_MANAGEMENT_PORT=0",
		"KEEL_DB_URL="+dbURL, "KEEL_PROVISIONING_DRIVER="+opts.Driver,
		// The local-development profile: the development ingest secret, LocalStack's account and the development
		// broker image.
		"SPRING_PROFILES_ACTIVE=local")
	if opts.Driver == "aws" {
		b.cmd.Env = append(b.cmd.Env, "KEEL_TEST_PLAYED_AGENTS=true")
	}
	for k, v := range stack {
		if k != "KEEL_DB_URL" {
			b.cmd.Env = append(b.cmd.Env, k+"="+v)
		}
	}
	b.cmd.Env = append(b.cmd.Env, "KEEL_INGEST_SECRET="+IngestSecret)
	b.cmd.Env = append(b.cmd.Env, opts.Env...)
	b.cmd.Stdout, b.cmd.Stderr = log, log
	// Its own process group, so Stop ends all of it; and a test binary killed on a timeout takes it along.
	b.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
	if err := b.cmd.Start(); err != nil {
		return nil, err
	}
	b.exited = make(chan error, 1)
	go func() { b.exited <- b.cmd.Wait() }()
	ready := fmt.Sprintf("http://localhost:%d/readyz", port)
	deadline := time.After(180 * time.Second)
	for {
		if resp, err := http.Get(ready); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return b, nil
			}
		}
		select {
		case err := <-b.exited:
			return nil, fmt.Errorf("the backend exited (%v), see %s", err, b.Log)
		case <-deadline:
			b.Stop()
			return nil, fmt.Errorf("the backend was not ready after 180 s, see %s", b.Log)
		case <-time.After(300 * time.Millisecond):
		}
	}
}

// Stop ends the backend's process group, gracefully first.
func (b *Backend) Stop() {
	pgid := b.cmd.Process.Pid
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-b.exited:
	case <-time.After(15 * time.Second):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-b.exited
	}
}

// Customer is a customer's side of onboarding in LocalStack: the cross-account role deployed from the
// template the API serves, and a VPC with a subnet in each of us-east-1a, b and c.
type Customer struct {
	RoleArn, VpcID string
	Subnets        [3]string
}

// Onboard deploys the customer's role and network into the test LocalStack (scripts/demo-account
// --no-register), leaving the registration to the test.
func (b *Backend) Onboard(ctx context.Context) (Customer, error) {
	var c Customer
	cmd := exec.CommandContext(ctx, filepath.Join(b.RepoRoot, "scripts/demo-account"), filepath.Join(b.RepoRoot, ".local/test/env"), "--no-register")
	cmd.Env = append(os.Environ(), "KEEL_API_URL="+b.APIURL)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return c, fmt.Errorf("scripts/demo-account: %w", err)
	}
	values := parseAssignments(string(out))
	c.RoleArn, c.VpcID = values["DEMO_ROLE_ARN"], values["DEMO_VPC_ID"]
	c.Subnets = [3]string{values["DEMO_SUBNET_A"], values["DEMO_SUBNET_B"], values["DEMO_SUBNET_C"]}
	if c.RoleArn == "" || c.VpcID == "" || c.Subnets[2] == "" {
		return c, fmt.Errorf("scripts/demo-account printed no role or network: %q", out)
	}
	return c, nil
}

// RepoRoot is the repository holding the working directory.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "scripts/stack")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the keel repository (no scripts/stack above the working directory)")
		}
		dir = parent
	}
}

func readEnv(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseAssignments(string(data)), nil
}

// parseAssignments reads NAME=value lines (optionally after "export "), skipping comments.
func parseAssignments(text string) map[string]string {
	values := map[string]string{}
	scanner := bufio.NewScanner(strings.NewReader(text))
	for scanner.Scan() {
		line := strings.TrimPrefix(strings.TrimSpace(scanner.Text()), "export ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok {
			values[k] = strings.Trim(v, `"'`)
		}
	}
	return values
}

// freshDatabase drops and creates the database on the stack's PostgreSQL, and returns its JDBC URL.
func freshDatabase(stack map[string]string, name string) (string, error) {
	jdbc := stack["KEEL_DB_URL"]
	hostPort := strings.TrimPrefix(jdbc, "jdbc:postgresql://")
	hostPort, _, _ = strings.Cut(hostPort, "/")
	admin := fmt.Sprintf("postgresql://%s:%s@%s/postgres", stack["KEEL_DB_USERNAME"], stack["KEEL_DB_PASSWORD"], hostPort)
	out, err := exec.Command("psql", "-q", "-v", "ON_ERROR_STOP=1", admin,
		"-c", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)", "-c", "CREATE DATABASE "+name).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("cannot create database %s: %v: %s", name, err, out)
	}
	return "jdbc:postgresql://" + hostPort + "/" + name, nil
}

// freePort asks the same script as the other suites for a port above the kernel's ephemeral range.
func freePort(root string) (int, error) {
	out, err := exec.Command(filepath.Join(root, "scripts/free-port")).Output()
	if err != nil {
		return 0, fmt.Errorf("scripts/free-port: %v", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

func first(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// Main sets up, runs the tests and exits with their code; a setup error ends the run at once, failed.
func Main(m *testing.M, setup func() (teardown func(), err error)) {
	teardown, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if teardown != nil {
			teardown()
		}
		os.Exit(1)
	}
	code := m.Run()
	teardown()
	os.Exit(code)
}

// Build builds the main package in the working directory as dir/name, static as ./dev builds it: the tests
// run the real binary.
func Build(dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", path, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return path, nil
}
