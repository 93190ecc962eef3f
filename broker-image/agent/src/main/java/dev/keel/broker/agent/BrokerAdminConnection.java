package dev.keel.broker.agent;

import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SslConfigs;

/**
 * How the agent's own Admin clients (partition drains, certificate reloads, the access reconciler) reach their
 * broker. Secured listeners: the broker's INTERNAL listener with the broker's own keystore and truststore, where its
 * certificate makes the agent a super user. Plaintext listeners: the client listener, as before.
 */
public final class BrokerAdminConnection {
    private final Map<String, Object> properties;

    private BrokerAdminConnection(Map<String, Object> properties) {
        this.properties = Map.copyOf(properties);
    }

    /** The connection for this node: {@code me} carries its advertised address and ports. */
    public static BrokerAdminConnection forNode(NodeSpec spec, Peer me, BrokerTlsFiles tls) {
        if (!spec.secured()) {
            return new BrokerAdminConnection(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    me.host() + ":" + me.listenerPort()));
        }
        return new BrokerAdminConnection(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, me.host() + ":" + me.internalPort(),
                CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL",
                SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12",
                SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, tls.keystore().toString(),
                SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, tls.keystorePassword(),
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, tls.truststore().toString(),
                SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https"));
    }

    /** The Admin client properties (a copy to add to). */
    public Map<String, Object> properties() {
        return properties;
    }

    /** A new Admin client; the caller closes it. */
    public Admin open() {
        return Admin.create(properties);
    }

    @Override
    public String toString() {
        return "BrokerAdminConnection[" + properties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) + ", "
                + properties.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT") + "]";
    }
}
