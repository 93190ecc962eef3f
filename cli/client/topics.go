package client

import (
	"bytes"
	"context"
	"encoding/json"

	"keel.dev/cli/api"
)

// The generated client types a topic's configs as a struct of the keys the API knows: it cannot send the null
// that gives a config back to the brokers' default, nor a key the API refuses on its field. These documents
// carry configs as maps, and the API judges them.

// TopicCreation is a KafkaTopicCreation.
type TopicCreation struct {
	Name              string            `json:"name"`
	Partitions        *int              `json:"partitions,omitempty"`
	ReplicationFactor *int              `json:"replicationFactor,omitempty"`
	Configs           map[string]string `json:"configs,omitempty"`
}

// TopicChange is a KafkaTopicUpdate, a merge patch: a nil config value removes the topic's own value.
type TopicChange struct {
	Partitions *int               `json:"partitions,omitempty"`
	Configs    map[string]*string `json:"configs,omitempty"`
}

// Empty says whether the change changes nothing.
func (t TopicChange) Empty() bool {
	return t.Partitions == nil && len(t.Configs) == 0
}

// CreateTopic asks for a topic on the instance's brokers.
func CreateTopic(ctx context.Context, c *api.ClientWithResponses, instance api.InstanceId, key string, topic TopicCreation) (*api.CreateKafkaTopicResponse, error) {
	body, err := json.Marshal(topic)
	if err != nil {
		return nil, err
	}
	return c.CreateKafkaTopicWithBodyWithResponse(ctx, instance, &api.CreateKafkaTopicParams{IdempotencyKey: IdempotencyKey(key)},
		"application/json", bytes.NewReader(body))
}

// UpdateTopic sends a topic's merge patch.
func UpdateTopic(ctx context.Context, c *api.ClientWithResponses, instance api.InstanceId, name, key string, change TopicChange) (*api.UpdateKafkaTopicResponse, error) {
	body, err := json.Marshal(change)
	if err != nil {
		return nil, err
	}
	return c.UpdateKafkaTopicWithBodyWithResponse(ctx, instance, name, &api.UpdateKafkaTopicParams{IdempotencyKey: IdempotencyKey(key)},
		"application/merge-patch+json", bytes.NewReader(body))
}
