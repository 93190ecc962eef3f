package dev.keel.broker.agent;

import java.io.IOException;
import java.net.URI;

import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataClientException;

/**
 * The instance's metadata, through the AWS SDK's IMDSv2 client (session tokens, retries): the user data (node spec),
 * instance id, zone, private address and the node-id tag. Tags in metadata need the launch template's
 * {@code MetadataOptions.InstanceMetadataTags=enabled}; without it the agent falls back to the peer directory.
 */
public final class Ec2Metadata {

    private final Ec2MetadataClient client;

    /** The metadata service at {@code endpoint} (on EC2, {@link #standard()}). */
    public Ec2Metadata(URI endpoint) {
        this.client = Ec2MetadataClient.builder().endpoint(endpoint).httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public static Ec2Metadata standard() {
        return new Ec2Metadata(URI.create("http://169.254.169.254"));
    }

    public String userData() throws IOException {
        return get("/latest/user-data");
    }

    public String instanceId() throws IOException {
        return get("/latest/meta-data/instance-id");
    }

    public String availabilityZone() throws IOException {
        return get("/latest/meta-data/placement/availability-zone");
    }

    public String privateAddress() throws IOException {
        return get("/latest/meta-data/local-ipv4");
    }

    /** The instance's private DNS name (e.g. {@code ip-10-0-1-10.ec2.internal}), or null when it has none. */
    public String localHostname() throws IOException {
        try {
            return get("/latest/meta-data/local-hostname");
        } catch (NotFound e) {
            return null;
        }
    }

    /** A tag of this instance, or null when tags are not exposed in metadata. */
    public String tag(String key) throws IOException {
        try {
            return get("/latest/meta-data/tags/instance/" + key);
        } catch (NotFound e) {
            return null;
        }
    }

    public NodeIdentity identity(NodeSpec spec, PeerDirectory peers) throws IOException {
        String instance = instanceId();
        String zone = availabilityZone();
        String address = privateAddress();
        String tag = tag(spec.nodeIdTag());
        int nodeId;
        if (tag != null) {
            try {
                nodeId = Integer.parseInt(tag.trim());
            } catch (NumberFormatException e) {
                throw new SpecException(spec.nodeIdTag(), "tag on " + instance + " must be an integer, got '" + tag + "'");
            }
        } else {
            nodeId = peers.peers().stream().filter(p -> p.host().equals(address)).mapToInt(Peer::nodeId).findFirst()
                    .orElseThrow(() -> new SpecException(spec.nodeIdTag(), "tag not readable from instance metadata "
                            + "and no peer has address " + address));
        }
        return new NodeIdentity(nodeId, zone, address, instance);
    }

    static final class NotFound extends IOException {
        NotFound(String path) {
            super("instance metadata " + path + " not found");
        }
    }

    private String get(String path) throws IOException {
        try {
            return client.get(path).asString();
        } catch (Ec2MetadataClientException e) {
            if (e.statusCode() == 404) {
                throw new NotFound(path);
            }
            throw new IOException("instance metadata " + path + " answered HTTP " + e.statusCode(), e);
        } catch (SdkClientException e) {
            throw new IOException("instance metadata " + path + " could not be read: " + e.getMessage(), e);
        }
    }
}
