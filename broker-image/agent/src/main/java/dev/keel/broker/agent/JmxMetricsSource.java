package dev.keel.broker.agent;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Metrics over JMX from the broker's own MBeans (Apache Kafka's names, which AutoMQ keeps as a Kafka fork):
 * <ul>
 *   <li>{@code kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec|BytesOutPerSec|MessagesInPerSec} (Count)</li>
 *   <li>{@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce|Fetch,version=*} (Count, summed)</li>
 *   <li>{@code kafka.server:type=ReplicaManager,name=PartitionCount|UnderReplicatedPartitions} (Value)</li>
 *   <li>{@code kafka.controller:type=KafkaController,name=OfflinePartitionsCount} (Value; controllers only)</li>
 *   <li>{@code kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce} (50thPercentile, 99thPercentile)</li>
 *   <li>{@code kafka.server:type=raft-metrics} (current-leader): the quorum leader this node knows</li>
 * </ul>
 * Rates are computed from the Count deltas between two samples (the first sample uses the meters' OneMinuteRate).
 * JMX listens on loopback only (the agent sets {@code KAFKA_JMX_OPTS}).
 */
public final class JmxMetricsSource implements MetricsSource {
    private static final Logger LOG = LoggerFactory.getLogger(JmxMetricsSource.class);

    private final JMXServiceURL url;
    private JMXConnector connector;
    private final Map<String, long[]> lastCounts = new HashMap<>();
    private long lastSampleNanos;

    public JmxMetricsSource(String host, int port) {
        try {
            this.url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + port + "/jmxrmi");
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Override
    public synchronized Sample sample() {
        try {
            MBeanServerConnection c = connection();
            long now = System.nanoTime();
            double elapsed = lastSampleNanos == 0 ? 0 : (now - lastSampleNanos) / 1e9;
            Double bytesIn = rate(c, "bytesIn", "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec", elapsed);
            Double bytesOut = rate(c, "bytesOut", "kafka.server:type=BrokerTopicMetrics,name=BytesOutPerSec", elapsed);
            Double messages = rate(c, "messagesIn", "kafka.server:type=BrokerTopicMetrics,name=MessagesInPerSec", elapsed);
            Double produce = rate(c, "produce", "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Produce,*",
                    elapsed);
            Double fetch = rate(c, "fetch", "kafka.network:type=RequestMetrics,name=RequestsPerSec,request=Fetch,*",
                    elapsed);
            Integer partitions = intValue(c, "kafka.server:type=ReplicaManager,name=PartitionCount");
            Integer urp = intValue(c, "kafka.server:type=ReplicaManager,name=UnderReplicatedPartitions");
            Integer offline = intValue(c, "kafka.controller:type=KafkaController,name=OfflinePartitionsCount");
            Double p50 = number(c, "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce", "50thPercentile");
            Double p99 = number(c, "kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce", "99thPercentile");
            Double leader = number(c, "kafka.server:type=raft-metrics", "current-leader");
            lastSampleNanos = now;
            return new Sample(new Report.Metrics(bytesIn, bytesOut, messages, produce, fetch, partitions, urp, offline,
                    p50, p99), leader == null ? null : leader.intValue());
        } catch (IOException | RuntimeException e) {
            LOG.debug("JMX sample failed: {}", e.toString());
            close();
            return new Sample(Report.Metrics.empty(), null);
        }
    }

    private MBeanServerConnection connection() throws IOException {
        if (connector == null) {
            Map<String, Object> env = new HashMap<>();
            env.put("jmx.remote.x.request.waiting.timeout", 3000L);
            connector = JMXConnectorFactory.connect(url, env);
        }
        return connector.getMBeanServerConnection();
    }

    private void close() {
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException ignored) {
                // best effort
            }
            connector = null;
        }
    }

    private Double rate(MBeanServerConnection c, String key, String pattern, double elapsed) throws IOException {
        Set<ObjectName> names = c.queryNames(name(pattern), null);
        if (names.isEmpty()) {
            return null;
        }
        long count = 0;
        double oneMinute = 0;
        for (ObjectName n : names) {
            Object v = attr(c, n, "Count");
            if (v instanceof Number num) {
                count += num.longValue();
            }
            Object r = attr(c, n, "OneMinuteRate");
            if (r instanceof Number num) {
                oneMinute += num.doubleValue();
            }
        }
        long[] prev = lastCounts.put(key, new long[]{count});
        if (prev == null || elapsed <= 0) {
            return oneMinute;
        }
        return Math.max(0, count - prev[0]) / elapsed;
    }

    private Integer intValue(MBeanServerConnection c, String name) throws IOException {
        Double d = number(c, name, "Value");
        return d == null ? null : d.intValue();
    }

    private Double number(MBeanServerConnection c, String name, String attribute) throws IOException {
        ObjectName on = name(name);
        if (!c.isRegistered(on)) {
            return null;
        }
        Object v = attr(c, on, attribute);
        return v instanceof Number num ? num.doubleValue() : null;
    }

    private static Object attr(MBeanServerConnection c, ObjectName n, String attribute) throws IOException {
        try {
            return c.getAttribute(n, attribute);
        } catch (javax.management.JMException e) {
            return null;
        }
    }

    private static ObjectName name(String s) {
        try {
            return new ObjectName(s);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
