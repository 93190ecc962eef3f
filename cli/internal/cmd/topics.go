package cmd

import (
	"maps"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"keel.dev/cli/api"
	"keel.dev/cli/client"
	"keel.dev/cli/internal/output"
)

func (a *app) topicsCommand() *cobra.Command {
	var scope instanceScope
	cmd := &cobra.Command{
		Use:     "topics",
		Aliases: []string{"topic"},
		Short:   "An instance's Kafka topics, created and changed on its brokers by the broker agent",
		Long: `Lists every topic on the instance's brokers as the broker agent last saw it (internal topics, __…, left
out), with the changes asked and not yet applied (CREATING, UPDATING, DELETING). A change Kafka refused
shows as FAILED with Kafka's message.`,
		Example: `  keel topics list --instance orders
  keel topics create payments --instance orders --partitions 12 --config retention.ms=604800000`,
	}
	scope.register(cmd)
	cmd.AddCommand(a.topicsList(&scope), a.topicsGet(&scope), a.topicsCreate(&scope), a.topicsUpdate(&scope), a.topicsDelete(&scope))
	return cmd
}

func topicDetail(topic *api.KafkaTopic) func(*output.Table) {
	return func(t *output.Table) {
		t.Row("NAME", topic.Name)
		t.Row("STATUS", topic.Status)
		t.Row("MESSAGE", topic.StatusMessage)
		t.Row("PARTITIONS", topic.Partitions)
		t.Row("REPLICATION FACTOR", topic.ReplicationFactor)
		t.Row("SIZE BYTES", topic.SizeBytes)
		t.Row("OBSERVED", topic.ObservedAt)
		t.Blank()
		t.Row("CONFIG", "VALUE")
		for _, k := range slices.Sorted(maps.Keys(topic.Configs)) {
			t.Row(k, topic.Configs[k])
		}
	}
}

func (a *app) topicsList(scope *instanceScope) *cobra.Command {
	var page paging
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the instance's topics, by name",
		Example: "  keel topics list --instance orders\n  keel topics list --instance orders -o json | jq -r '.items[] | [.name, .partitions] | @tsv'",
		Args:    cobra.NoArgs,
		RunE: scope.run(a, func(cmd *cobra.Command, _ []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			body, topics, err := listPages(page, func(cursor *string, limit int) ([]byte, []api.KafkaTopic, *string, error) {
				r, err := c.ListKafkaTopicsWithResponse(cmd.Context(), instance, &api.ListKafkaTopicsParams{Limit: &limit, Cursor: cursor})
				if err != nil {
					return nil, nil, nil, err
				}
				return r.Body, r.JSON200.Items, r.JSON200.NextCursor, nil
			})
			if err != nil {
				return err
			}
			return a.print(body, func(t *output.Table) {
				t.Row("NAME", "STATUS", "PARTITIONS", "REPLICATION", "RETENTION MS", "SIZE BYTES", "OBSERVED")
				for _, topic := range topics {
					t.Row(topic.Name, topic.Status, topic.Partitions, topic.ReplicationFactor, topic.RetentionMs, topic.SizeBytes, topic.ObservedAt)
				}
			})
		}),
	}
	page.register(cmd)
	return cmd
}

func (a *app) topicsGet(scope *instanceScope) *cobra.Command {
	return &cobra.Command{
		Use:     "get NAME",
		Short:   "Show a topic: partitions, replication, size and the configs set on it",
		Example: "  keel topics get payments --instance orders",
		Args:    cobra.ExactArgs(1),
		RunE: scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			r, err := c.GetKafkaTopicWithResponse(cmd.Context(), instance, args[0], nil)
			if err != nil {
				return err
			}
			return a.print(r.Body, topicDetail(r.JSON200))
		}),
	}
}

// topicConfigs parses --config KEY=VALUE values.
func topicConfigs(values []string) (map[string]string, error) {
	configs := map[string]string{}
	for _, v := range values {
		key, value, ok := strings.Cut(v, "=")
		if !ok || key == "" {
			return nil, usagef("--config %q: use KEY=VALUE, e.g. retention.ms=604800000", v)
		}
		configs[key] = value
	}
	return configs, nil
}

func (a *app) topicsCreate(scope *instanceScope) *cobra.Command {
	var partitions, replication int
	var configs []string
	var parsed map[string]string
	var key string
	cmd := &cobra.Command{
		Use:   "create NAME",
		Short: "Create a topic",
		Long: `Records the topic; the broker agent creates it within seconds (CREATING, then ACTIVE, or FAILED with Kafka's
message). --partitions defaults to 1 and --replication-factor to the brokers' default. --config sets a
topic config (repeat it): cleanup.policy, retention.ms, retention.bytes, max.message.bytes, segment.bytes,
segment.ms, min.insync.replicas, compression.type, message.timestamp.type, delete.retention.ms,
min.compaction.lag.ms, max.compaction.lag.ms.`,
		Example: `  keel topics create payments --instance orders --partitions 12
  keel topics create payments --instance orders --config retention.ms=604800000 --config cleanup.policy=compact`,
		Args: cobra.ExactArgs(1),
		RunE: checkFirst(func() (err error) {
			parsed, err = topicConfigs(configs)
			return err
		}, scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			body := client.TopicCreation{Name: args[0], Configs: parsed}
			if cmd.Flags().Changed("partitions") {
				body.Partitions = &partitions
			}
			if cmd.Flags().Changed("replication-factor") {
				body.ReplicationFactor = &replication
			}
			r, err := client.CreateTopic(cmd.Context(), c, instance, key, body)
			if err != nil {
				return err
			}
			return a.print(r.Body, topicDetail(r.JSON202))
		})),
	}
	cmd.Flags().IntVar(&partitions, "partitions", 1, "the number of partitions")
	cmd.Flags().IntVar(&replication, "replication-factor", 0, "replicas per partition (default: the brokers' default)")
	cmd.Flags().StringArrayVar(&configs, "config", nil, "a topic config as KEY=VALUE (repeat for several)")
	idempotencyFlag(cmd, &key)
	return cmd
}

// topicUpdate is the merge patch update's flags ask for: configs to set and to remove, and a new partition count.
func topicUpdate(cmd *cobra.Command, partitions int, set, remove []string) (client.TopicChange, error) {
	var u client.TopicChange
	if cmd.Flags().Changed("partitions") {
		u.Partitions = &partitions
	}
	values, err := topicConfigs(set)
	if err != nil {
		return u, err
	}
	configs := map[string]*string{}
	for k, v := range values {
		configs[k] = &v
	}
	for _, k := range remove {
		if _, both := values[k]; both {
			return u, usagef("--config and --remove-config both name %s: give one", k)
		}
		// null gives the config back to the brokers' default.
		configs[k] = nil
	}
	u.Configs = configs
	if u.Empty() {
		return u, usagef("nothing to change: give --partitions, --config or --remove-config")
	}
	return u, nil
}

func (a *app) topicsUpdate(scope *instanceScope) *cobra.Command {
	var partitions int
	var set, remove []string
	var key string
	var patch client.TopicChange
	var cmd *cobra.Command
	cmd = &cobra.Command{
		Use:   "update NAME",
		Short: "Raise a topic's partitions, set its configs or give them back to the brokers' defaults",
		Long: `Sends a merge patch: --config KEY=VALUE sets a config, --remove-config KEY removes the topic's own value
(back to the brokers' default), --partitions raises the partition count (Kafka cannot lower it). The
topic is UPDATING until the broker agent has applied it.`,
		Example: `  keel topics update payments --instance orders --partitions 24
  keel topics update payments --instance orders --config retention.ms=1209600000 --remove-config cleanup.policy`,
		Args: cobra.ExactArgs(1),
		RunE: checkFirst(func() (err error) {
			patch, err = topicUpdate(cmd, partitions, set, remove)
			return err
		}, scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			r, err := client.UpdateTopic(cmd.Context(), c, instance, args[0], key, patch)
			if err != nil {
				return err
			}
			return a.print(r.Body, topicDetail(r.JSON202))
		})),
	}
	cmd.Flags().IntVar(&partitions, "partitions", 0, "the new partition count, more than the topic has")
	cmd.Flags().StringArrayVar(&set, "config", nil, "a topic config to set, KEY=VALUE (repeat for several)")
	cmd.Flags().StringArrayVar(&remove, "remove-config", nil, "a topic config to give back to the brokers' default (repeat for several)")
	idempotencyFlag(cmd, &key)
	return cmd
}

func (a *app) topicsDelete(scope *instanceScope) *cobra.Command {
	var key string
	var yes bool
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a topic and its data",
		Long: `Asks for the topic's name to be typed before deleting it, unless --yes (required without a terminal). The
topic is DELETING until the broker agent has deleted it and its data on the brokers; it cannot be undone.`,
		Example: "  keel topics delete payments --instance orders\n  keel topics delete payments --instance orders --yes",
		Args:    cobra.ExactArgs(1),
		RunE: scope.run(a, func(cmd *cobra.Command, args []string, c *api.ClientWithResponses, instance uuid.UUID) error {
			if !yes {
				if err := a.confirm("topic", args[0]); err != nil {
					return err
				}
			}
			r, err := c.DeleteKafkaTopicWithResponse(cmd.Context(), instance, args[0], &api.DeleteKafkaTopicParams{IdempotencyKey: client.IdempotencyKey(key)})
			if err != nil {
				return err
			}
			return a.print(r.Body, topicDetail(r.JSON202))
		}),
	}
	idempotencyFlag(cmd, &key)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking")
	return cmd
}
