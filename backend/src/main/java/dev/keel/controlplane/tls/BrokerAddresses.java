package dev.keel.controlplane.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.util.IPAddress;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.InstanceNodes;
import dev.keel.controlplane.settings.ProductionSettings;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.provisioner.Inventory;

/**
 * The names a node's certificate may carry: the address its instance's inventory records for the node's machine and,
 * for an IPv4 address, the private DNS names EC2 gives that machine (the agent asks for its IMDS
 * {@code local-hostname} too: {@code ip-10-0-1-5.ec2.internal} in us-east-1, {@code ip-10-0-1-5.<region>.compute.internal}
 * elsewhere, or the same with the machine id in subnets that name hosts by resource). In local development against
 * emulated EC2 the local runner starts the brokers on this machine, where clients reach them at {@code 127.0.0.1}, so
 * that address is a node's too.
 *
 * <p>While a create, update or repair runs, a CSR naming another address is answered {@code node-not-recorded} (503)
 * rather than refused: its machine may be one the running step launched and has not recorded yet, or one that
 * replaces a broker whose old address is still recorded. The agent asks again, and once the step has recorded the
 * machine it is signed, or refused if its names are still not the node's.
 */
@Component
class BrokerAddresses {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Pattern HOST_AND_PORT = Pattern.compile("^\\[?(.+?)]?:\\d+$");

    private final InstanceNodes nodes;
    private final boolean brokersOnLoopback;

    BrokerAddresses(InstanceNodes nodes, Environment environment,
                    @Value("${keel.provisioning.driver:}") String driver,
                    @Value("${keel.provisioning.aws.endpoint:}") String awsEndpoint) {
        this.nodes = nodes;
        this.brokersOnLoopback = environment.matchesProfiles(ProductionSettings.LOCAL_PROFILE) && "aws".equals(driver)
                && !awsEndpoint.isBlank();
    }

    /** Refuses, on {@code csr}, names that are not node {@code nodeId}'s; 503 while a running operation may record it. */
    void check(Instance instance, int nodeId, GeneralNames requested) {
        Set<String> allowed = allowed(instance, nodes.recorded(instance, nodeId).orElse(null));
        List<String> refused = new ArrayList<>();
        for (GeneralName name : requested.getNames()) {
            String canonical = canonical(name);
            if (!allowed.contains(canonical)) {
                refused.add(canonical);
            }
        }
        if (refused.isEmpty()) {
            return;
        }
        if (nodes.launching(instance)) {
            throw ApiException.of(ProblemType.NODE_NOT_RECORDED, SigningRequests.FIELD, "asks for " + refused
                    + ", not node " + nodeId + "'s recorded addresses " + allowed + "; an operation that launches "
                    + "brokers is running and may not have recorded this machine yet: ask again shortly");
        }
        throw ApiException.validation(SigningRequests.FIELD, "asks for " + refused + ", which are not node " + nodeId
                + "'s addresses; it may ask only for " + (allowed.isEmpty()
                ? "the address recorded for its machine, and none is recorded" : allowed));
    }

    private Set<String> allowed(Instance instance, Inventory.Broker broker) {
        Set<String> allowed = new LinkedHashSet<>();
        if (broker != null && broker.address() != null) {
            Matcher hostAndPort = HOST_AND_PORT.matcher(broker.address());
            String host = hostAndPort.matches() ? hostAndPort.group(1) : broker.address();
            Optional<InetAddress> ip = literal(host);
            allowed.add(ip.map(InetAddress::getHostAddress).orElse(host.toLowerCase(Locale.ROOT)));
            if (ip.isPresent() && ip.get().getAddress().length == 4) {
                allowed.add(ec2Name("ip-" + ip.get().getHostAddress().replace('.', '-'), instance.region()));
                if (broker.machineId() != null) {
                    allowed.add(ec2Name(broker.machineId().toLowerCase(Locale.ROOT), instance.region()));
                }
            }
        }
        if (brokersOnLoopback) {
            allowed.add(LOOPBACK);
        }
        return allowed;
    }

    private static String ec2Name(String host, String region) {
        return host + ("us-east-1".equals(region) ? ".ec2.internal" : "." + region + ".compute.internal");
    }

    /** An IP address as {@link InetAddress#getHostAddress()} writes it, a DNS name in lower case. */
    private static String canonical(GeneralName name) {
        if (name.getTagNo() == GeneralName.iPAddress) {
            try {
                return InetAddress.getByAddress(ASN1OctetString.getInstance(name.getName()).getOctets()).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException("SigningRequests lets only 4- and 16-byte addresses through", e);
            }
        }
        return name.getName().toString().toLowerCase(Locale.ROOT);
    }

    /** The address {@code host} writes, if it is one; never a DNS lookup. */
    private static Optional<InetAddress> literal(String host) {
        if (!IPAddress.isValid(host)) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(host));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("an address literal needs no lookup: " + host, e);
        }
    }
}
