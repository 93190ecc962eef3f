package testenv

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"keel.dev/cli/api"
)

// IngestSecret is the ingest secret of every backend Start runs, so that tests can derive an instance's
// ingest token as the control plane does.
const IngestSecret = "keel-test-backend-ingest-secret-0123456789"

// PlayBrokerAgents reports, for every instance keel lists, what its broker agent would after applying the
// desired access with the Kafka Admin API: the delivery it pulled, each user with a password upserted, each ACL
// there (created when it was missing), each removed one absent, each topic change applied and the topics as they
// then are. It is
// the agents' side of the access protocol (contract/agent-access.schema.json) against the real control plane,
// for tests where no broker runs; the agent's own tests apply it to real brokers. It returns a function that
// stops it.
func (b *Backend) PlayBrokerAgents(t *testing.T, keel *api.ClientWithResponses) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		brokers := map[uuid.UUID]*brokerState{}
		for ctx.Err() == nil {
			instances, err := keel.ListInstancesWithResponse(ctx, nil)
			if err == nil {
				for _, inst := range instances.JSON200.Items {
					if brokers[inst.Id] == nil {
						brokers[inst.Id] = &brokerState{users: map[string]bool{}, acls: map[string]bool{}, topics: map[string]*reportedTopic{}}
					}
					if err := b.reconcile(ctx, brokers[inst.Id], inst.Id); err != nil && ctx.Err() == nil {
						t.Logf("broker agent stand-in for %s: %v", inst.Id, err)
					}
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// brokerState is what an instance's brokers hold, as far as the access protocol goes.
type brokerState struct {
	users  map[string]bool
	acls   map[string]bool
	topics map[string]*reportedTopic
}

type reportedTopic struct {
	Name              string            `json:"name"`
	Partitions        int               `json:"partitions"`
	ReplicationFactor int               `json:"replicationFactor"`
	Configs           map[string]string `json:"configs"`
	SizeBytes         *int64            `json:"sizeBytes"`
}

type desiredAccess struct {
	Delivery int64 `json:"delivery"`
	Users    []struct {
		Name              string  `json:"name"`
		CredentialVersion int     `json:"credentialVersion"`
		Password          *string `json:"password"`
	} `json:"users"`
	RemovedUsers []string              `json:"removedUsers"`
	Acls         []struct{ ID string } `json:"acls"`
	RemovedAcls  []struct{ ID string } `json:"removedAcls"`
	TopicChanges []struct {
		ID                string             `json:"id"`
		Action            string             `json:"action"`
		Name              string             `json:"name"`
		Partitions        *int               `json:"partitions"`
		ReplicationFactor *int               `json:"replicationFactor"`
		Configs           map[string]*string `json:"configs"`
	} `json:"topicChanges"`
}

func (be *Backend) reconcile(ctx context.Context, b *brokerState, instance uuid.UUID) error {
	var desired desiredAccess
	status, err := be.ingest(ctx, http.MethodGet, instance, nil, &desired)
	if err != nil || status == http.StatusConflict {
		// 409: an instance being deleted, or whose brokers authenticate nobody.
		return err
	}
	report := map[string]any{"delivery": desired.Delivery}
	users, acls, changes, topics := []map[string]any{}, []map[string]any{}, []map[string]any{}, []map[string]any{}
	for _, u := range desired.Users {
		var applied any
		if u.Password != nil {
			b.users[u.Name], applied = true, u.CredentialVersion
		}
		users = append(users, map[string]any{"name": u.Name, "present": b.users[u.Name], "appliedCredentialVersion": applied, "error": nil})
	}
	for _, name := range desired.RemovedUsers {
		delete(b.users, name)
		users = append(users, map[string]any{"name": name, "present": false, "appliedCredentialVersion": nil, "error": nil})
	}
	for _, acl := range desired.Acls {
		created := !b.acls[acl.ID]
		b.acls[acl.ID] = true
		acls = append(acls, map[string]any{"id": acl.ID, "present": true, "created": created, "error": nil})
	}
	for _, acl := range desired.RemovedAcls {
		delete(b.acls, acl.ID)
		acls = append(acls, map[string]any{"id": acl.ID, "present": false, "created": false, "error": nil})
	}
	for _, change := range desired.TopicChanges {
		b.apply(change.Action, change.Name, change.Partitions, change.ReplicationFactor, change.Configs)
		changes = append(changes, map[string]any{"id": change.ID, "error": nil})
	}
	for _, topic := range b.topics {
		topics = append(topics, map[string]any{"name": topic.Name, "partitions": topic.Partitions,
			"replicationFactor": topic.ReplicationFactor, "configs": topic.Configs, "sizeBytes": topic.SizeBytes})
	}
	report["users"], report["acls"], report["topicChanges"], report["topics"] = users, acls, changes, topics
	body, err := json.Marshal(report)
	if err != nil {
		return err
	}
	if status, err = be.ingest(ctx, http.MethodPost, instance, body, nil); err == nil && status != http.StatusNoContent {
		return fmt.Errorf("the access report was answered %d", status)
	}
	return err
}

// apply changes the topics as createTopics, createPartitions, incrementalAlterConfigs and deleteTopics would.
func (b *brokerState) apply(action, name string, partitions, replication *int, configs map[string]*string) {
	switch action {
	case "CREATE":
		topic := &reportedTopic{Name: name, Partitions: 1, ReplicationFactor: 1, Configs: map[string]string{}, SizeBytes: new(int64)}
		if partitions != nil {
			topic.Partitions = *partitions
		}
		if replication != nil {
			topic.ReplicationFactor = *replication
		}
		b.topics[name] = topic
	case "DELETE":
		delete(b.topics, name)
		return
	}
	topic := b.topics[name]
	if topic == nil {
		return
	}
	if action == "UPDATE" && partitions != nil {
		topic.Partitions = *partitions
	}
	for k, v := range configs {
		if v == nil {
			delete(topic.Configs, k)
		} else {
			topic.Configs[k] = *v
		}
	}
}

// ingest calls the instance's access endpoint of the ingest API with its ingest token, derived as the
// control plane derives it (HMAC-SHA256 of "ingest:<id>" under the ingest secret).
func (b *Backend) ingest(ctx context.Context, method string, instance uuid.UUID, body []byte, into any) (int, error) {
	mac := hmac.New(sha256.New, []byte(IngestSecret))
	mac.Write([]byte("ingest:" + instance.String()))
	token := base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	url := strings.TrimSuffix(b.APIURL, "/api/v1") + "/ingest/v1/instances/" + instance.String() + "/access"
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if into != nil && resp.StatusCode == http.StatusOK {
		return resp.StatusCode, json.NewDecoder(resp.Body).Decode(into)
	}
	return resp.StatusCode, nil
}
