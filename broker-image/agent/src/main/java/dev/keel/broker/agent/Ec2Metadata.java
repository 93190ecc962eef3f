package dev.keel.broker.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * IMDSv2 (token-based instance metadata). Reads the user data (node spec), instance id, zone, private address and
 * the node-id tag. Tags in metadata need the launch template's {@code MetadataOptions.InstanceMetadataTags=enabled}
 * (and {@code HttpTokens=required} for v2 only); without it the agent falls back to the peer directory.
 */
public final class Ec2Metadata {
    private final URI base;
    private final HttpClient http;
    private String token;

    public Ec2Metadata(URI base) {
        this.base = base;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
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

    private synchronized String token() throws IOException {
        if (token == null) {
            HttpRequest req = HttpRequest.newBuilder(base.resolve("/latest/api/token"))
                    .timeout(Duration.ofSeconds(2))
                    .header("X-aws-ec2-metadata-token-ttl-seconds", "21600")
                    .PUT(HttpRequest.BodyPublishers.noBody()).build();
            token = send(req, "/latest/api/token");
        }
        return token;
    }

    private String get(String path) throws IOException {
        HttpRequest req = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(2))
                .header("X-aws-ec2-metadata-token", token()).GET().build();
        return send(req, path);
    }

    private String send(HttpRequest req, String path) throws IOException {
        try {
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (resp.statusCode() == 404) {
                throw new NotFound(path);
            }
            if (resp.statusCode() != 200) {
                throw new IOException("instance metadata " + path + " answered HTTP " + resp.statusCode());
            }
            return resp.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
