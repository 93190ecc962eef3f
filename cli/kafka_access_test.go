package main_test

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"keel.dev/cli/api"
	"keel.dev/cli/auth"
	"keel.dev/cli/client"
)

// TestKafkaAccessGolden walks an instance's Kafka users, ACLs and topics with the real binary: every verb in
// a table, and in json or yaml, the password shown once, the delete prompts and the usage errors, compared with
// testdata/*.golden. No broker runs against the no-cloud driver, so what is asked stays CREATING, UPDATING or
// DELETING, but for a topic's update, which needs the topic on the brokers: the backend plays the broker
// agents for it.
func TestKafkaAccessGolden(t *testing.T) {
	s := newSession(t)
	s.keel("login", "--client-id", "keel-automation-demo", "--client-secret", "keel-automation-demo-secret").mustSucceed(t)
	s.keel("cloud-accounts", "register", "--name", "kafka-access", "--aws-account-id", "000000000000",
		"--role-arn", "arn:aws:iam::000000000000:role/KeelKafkaAccess", "--region", "us-east-1").mustSucceed(t)
	var account struct{ ID string }
	decode(t, s.keel("cloud-accounts", "get", "kafka-access").mustSucceed(t).stdout, &account)
	s.env = append(s.env, "ACCOUNT_ID="+account.ID)
	created := s.keel("instances", "create", "-f", "testdata/specs/s3.yaml", "--name", "access", "--wait", "-o", "json").mustSucceed(t)
	if !strings.Contains(created.stderr, "Kafka user admin, password ") || !strings.Contains(created.stderr, "shown this once") {
		t.Errorf("creating an instance did not show the admin's password once:\n%s", created.stderr)
	}

	golden(t, "error-users-no-instance", s.keel("users", "list"))
	golden(t, "users-create-table", s.keel("users", "create", "orders-service", "--instance", "access", "-o", "table").mustSucceed(t))
	golden(t, "users-create-json", s.keel("users", "create", "billing", "--instance", "access", "-o", "json").mustSucceed(t))
	golden(t, "users-list-table", s.keel("users", "list", "--instance", "access", "-o", "table").mustSucceed(t))
	golden(t, "users-get-yaml", s.keel("users", "get", "orders-service", "--instance", "access", "-o", "yaml").mustSucceed(t))
	golden(t, "users-rotate-password", s.keel("users", "rotate-password", "orders-service", "--instance", "access", "-o", "table").mustSucceed(t))
	golden(t, "error-users-delete-unconfirmed", s.keel("users", "delete", "billing", "--instance", "access"))
	golden(t, "users-delete-confirmed", s.keelAtTerminal("billing\n", "users", "delete", "billing", "--instance", "access", "-o", "table").mustSucceed(t))

	golden(t, "error-acls-resource-type", s.keel("acls", "create", "--instance", "access", "--principal", "User:orders-service",
		"--resource-type", "topics", "--resource-name", "orders", "--operation", "write"))
	created = s.keel("acls", "create", "--instance", "access", "--principal", "User:orders-service", "--resource-type", "topic",
		"--resource-name", "orders", "--operation", "write", "-o", "table").mustSucceed(t)
	golden(t, "acls-create-table", created)
	s.keel("acls", "create", "--instance", "access", "--principal", "User:orders-service", "--resource-type", "transactional-id",
		"--resource-name", "orders-", "--pattern", "prefixed", "--operation", "write", "--host", "10.0.0.7").mustSucceed(t)
	golden(t, "acls-list-table", s.keel("acls", "list", "--instance", "access", "--principal", "User:orders-service", "-o", "table").mustSucceed(t))
	acl := uuidPattern.FindString(created.stdout)
	golden(t, "acls-get-json", s.keel("acls", "get", acl, "--instance", "access", "-o", "json").mustSucceed(t))
	golden(t, "error-acls-not-an-id", s.keel("acls", "get", "orders", "--instance", "access"))
	golden(t, "acls-delete-confirmed", s.keelAtTerminal(acl+"\n", "acls", "delete", acl, "--instance", "access", "-o", "table").mustSucceed(t))

	golden(t, "error-topics-config", s.keel("topics", "create", "payments", "--instance", "access", "--config", "retention.ms"))
	golden(t, "topics-create-table", s.keel("topics", "create", "payments", "--instance", "access", "--partitions", "12",
		"--config", "retention.ms=604800000", "--config", "cleanup.policy=delete", "-o", "table").mustSucceed(t))
	golden(t, "topics-list-table", s.keel("topics", "list", "--instance", "access", "-o", "table").mustSucceed(t))
	golden(t, "topics-get-yaml", s.keel("topics", "get", "payments", "--instance", "access", "-o", "yaml").mustSucceed(t))
	golden(t, "error-topics-nothing-to-change", s.keel("topics", "update", "payments", "--instance", "access"))
	// A topic changes once the brokers have it: the backend plays the broker agents from here on.
	stop := backend.PlayBrokerAgents(t, apiClient(t))
	defer stop()
	s.awaitTopic(t, "payments")
	golden(t, "topics-update-table", s.keel("topics", "update", "payments", "--instance", "access", "--partitions", "24",
		"--config", "retention.ms=1209600000", "--remove-config", "cleanup.policy", "-o", "table").mustSucceed(t))
	s.awaitTopic(t, "payments")
	golden(t, "topics-delete-yes", s.keel("topics", "delete", "payments", "--instance", "access", "--yes", "-o", "json").mustSucceed(t))
	stop()

	ca := s.keel("instances", "ca-certificate", "access").mustSucceed(t)
	golden(t, "instances-ca-certificate", ca)
	block, _ := pem.Decode([]byte(ca.stdout))
	if block == nil || block.Type != "CERTIFICATE" {
		t.Fatalf("instances ca-certificate printed no PEM certificate:\n%s", ca.stdout)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || !cert.IsCA {
		t.Errorf("instances ca-certificate printed no CA certificate (%v)", err)
	}

	// An instance whose brokers authenticate nobody has no users (nor ACLs, nor a CA).
	s.keel("instances", "create", "-f", "testdata/specs/plaintext.yaml", "--wait").mustSucceed(t)
	golden(t, "error-users-listener-unauthenticated", s.keel("users", "create", "orders-service", "--instance", "plain"))
}

// awaitTopic waits until the (played) broker agent has applied the topic's last change.
func (s *session) awaitTopic(t *testing.T, name string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var topic struct{ Status string }
		decode(t, s.keel("topics", "get", name, "--instance", "access", "-o", "json").mustSucceed(t).stdout, &topic)
		if topic.Status == "ACTIVE" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("topic %s is still %s after a minute", name, topic.Status)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// apiClient is the API as the demo service account, for what the binary does not do itself.
func apiClient(t *testing.T) *api.ClientWithResponses {
	t.Helper()
	tokens := auth.ClientCredentials(context.Background(), auth.Client{Issuer: backend.Issuer, ID: "keel-automation-demo", Secret: "keel-automation-demo-secret"})
	c, err := client.New(client.Config{APIURL: backend.APIURL, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
