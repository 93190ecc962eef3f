package dev.keel.broker.agent;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the broker's certificate before it expires, without a restart and without dropping a connection: when less
 * than a third of its validity remains, a new key and certificate replace the keystore in place, then the broker is
 * told to re-read it: {@code incrementalAlterConfigs} on its own BROKER resource sets
 * {@code listener.name.<listener>.ssl.keystore.location} (the same path) for every TLS listener it serves. Kafka
 * rebuilds a listener's SSL engine when its keystore file changed; open connections keep their sessions, new
 * handshakes present the new certificate. The broker's connections to the controllers keep the certificate it started
 * with, so it restarts onto the new one in its slot before the old one expires ({@link BrokerRestartSchedule}).
 * Checked on the report schedule; a failed step is tried again next time.
 */
final class CertificateRotation {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateRotation.class);
    private static final int CALL_TIMEOUT_S = 30;

    private final BrokerCertificates certificates;
    private final BrokerAdminConnection admin;
    private final int nodeId;
    private final List<String> listeners;
    private final Runnable restartBroker;
    private final Clock clock;
    private boolean reloadPending;
    /** When the certificate the broker process started with expires. */
    private Instant startedWithExpiry;
    private Instant restartAt;

    CertificateRotation(BrokerCertificates certificates, BrokerAdminConnection admin, int nodeId, boolean controller,
                        Runnable restartBroker, Clock clock) {
        this.certificates = certificates;
        this.admin = admin;
        this.nodeId = nodeId;
        this.listeners = BrokerConfigRenderer.tlsListeners(controller);
        this.restartBroker = restartBroker;
        this.clock = clock;
        this.startedWithExpiry = certificates.current().getNotAfter().toInstant();
    }

    /** One check: renews when due, then has the broker reload the keystore (again, until it has). */
    synchronized void tick() {
        try {
            if (!reloadPending && certificates.renewalDue()) {
                LOG.info("broker certificate expires {}: renewing", certificates.current().getNotAfter().toInstant());
                certificates.renew();
                reloadPending = true;
            }
            if (reloadPending) {
                reload();
                reloadPending = false;
                restartAt = BrokerRestartSchedule.restartAt(clock.instant(), startedWithExpiry, nodeId);
                LOG.info("broker {} restarts onto its renewed certificate at {}, before the one it started with expires"
                        + " ({})", nodeId, restartAt, startedWithExpiry);
            }
            if (restartAt != null && !clock.instant().isBefore(restartAt)) {
                restartBroker.run();
                startedWithExpiry = certificates.current().getNotAfter().toInstant();
                restartAt = null;
            }
        } catch (BrokerCertificates.Unavailable e) {
            LOG.warn("certificate renewal: the control plane did not answer ({}); trying again", e.getMessage());
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("the broker did not reload its keystore yet: {}",
                    (e instanceof ExecutionException ? e.getCause() : e).toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("certificate renewal failed: {}", e.toString());
        }
    }

    private void reload() throws ExecutionException, TimeoutException, InterruptedException {
        String location = certificates.files().keystore().toString();
        List<AlterConfigOp> ops = listeners.stream()
                .map(l -> new AlterConfigOp(new ConfigEntry(BrokerConfigRenderer.prefix(l) + "ssl.keystore.location",
                        location), AlterConfigOp.OpType.SET)).toList();
        try (Admin client = admin.open()) {
            client.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER,
                    Integer.toString(nodeId)), ops)).all().get(CALL_TIMEOUT_S, TimeUnit.SECONDS);
        }
        LOG.info("broker {} reloaded its keystore on {}", nodeId, listeners);
    }
}
