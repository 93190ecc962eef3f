package dev.keel.broker.agent.access;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics on the cluster, as the control plane lists them: every topic but Kafka's internal ones ({@code __…}),
 * with its partition count, replication factor, the configs overridden on the topic itself and its size on disk
 * (the sum of its replicas' log sizes; null when a broker hosting one did not say, e.g. a broker down, or a broker
 * whose log directories carry no size).
 */
final class TopicInventory {
    private static final Logger LOG = LoggerFactory.getLogger(TopicInventory.class);

    private TopicInventory() {
    }

    /** Null when the topics could not be listed or described this pass. */
    static List<AccessReport.Topic> read(Admin admin) throws InterruptedException {
        try {
            List<String> names = AdminCalls.await(admin.listTopics().names()).stream()
                    .filter(name -> !name.startsWith("__")).sorted().toList();
            if (names.isEmpty()) {
                return List.of();
            }
            Map<String, KafkaFuture<TopicDescription>> topics = admin.describeTopics(names).topicNameValues();
            Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(names.stream()
                    .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList()).values();
            Map<Replica, Long> sizes = replicaSizes(admin);
            List<AccessReport.Topic> inventory = new ArrayList<>();
            for (String name : names) {
                TopicDescription topic;
                Config config;
                try {
                    topic = AdminCalls.await(topics.get(name));
                    config = AdminCalls.await(configs.get(new ConfigResource(ConfigResource.Type.TOPIC, name)));
                } catch (ExecutionException e) {
                    if (AdminCalls.cause(e) instanceof UnknownTopicOrPartitionException) {
                        continue; // deleted since it was listed
                    }
                    throw e;
                }
                inventory.add(new AccessReport.Topic(name, topic.partitions().size(),
                        topic.partitions().stream().mapToInt(p -> p.replicas().size()).max().orElse(0),
                        overrides(config), size(topic, sizes)));
            }
            return inventory;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("cannot list the topics: {}", AdminCalls.error(e));
            return null;
        }
    }

    private static Map<String, String> overrides(Config config) {
        Map<String, String> overrides = new TreeMap<>();
        config.entries().stream()
                .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG && e.value() != null)
                .forEach(e -> overrides.put(e.name(), e.value()));
        return overrides;
    }

    private record Replica(int broker, TopicPartition partition) {
    }

    /** The size of every replica the brokers that answered know; a broker that did not is left out. */
    private static Map<Replica, Long> replicaSizes(Admin admin)
            throws ExecutionException, TimeoutException, InterruptedException {
        Set<Integer> brokers = AdminCalls.await(admin.describeCluster().nodes()).stream().map(Node::id)
                .collect(Collectors.toSet());
        Map<Integer, KafkaFuture<Map<String, LogDirDescription>>> perBroker =
                admin.describeLogDirs(brokers).descriptions();
        Map<Replica, Long> sizes = new HashMap<>();
        for (var broker : perBroker.entrySet()) {
            Collection<LogDirDescription> dirs;
            try {
                dirs = AdminCalls.await(broker.getValue()).values();
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("broker {} did not describe its log directories: {}", broker.getKey(), AdminCalls.error(e));
                continue;
            }
            for (LogDirDescription dir : dirs) {
                if (dir.error() != null) {
                    continue;
                }
                for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                    if (!replica.getValue().isFuture()) {
                        sizes.merge(new Replica(broker.getKey(), replica.getKey()), replica.getValue().size(),
                                Long::sum);
                    }
                }
            }
        }
        return sizes;
    }

    private static Long size(TopicDescription topic, Map<Replica, Long> sizes) {
        long total = 0;
        for (TopicPartitionInfo partition : topic.partitions()) {
            for (Node node : partition.replicas()) {
                Long size = sizes.get(new Replica(node.id(), new TopicPartition(topic.name(), partition.partition())));
                if (size == null) {
                    return null;
                }
                total += size;
            }
        }
        return total;
    }
}
