package dev.keel.provisioner.aws;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.keel.provisioner.ProvisioningException;

/**
 * A broker's EC2 user data: a shell script that stock Amazon Linux 2023 runs at first boot. It writes the node spec
 * (contract/node-spec.schema.json) to {@code /etc/keel/node-spec.json}, installs Docker from the distribution's own
 * repositories (served from S3 in the region, so reachable through an S3 gateway endpoint without internet), and runs
 * the Keel broker image, pinned by digest, with the spec. The spec sits between fixed markers so that whoever reads
 * the user data back (the provisioner, the agent, the local runner) finds it without running the script.
 */
public final class BootScript {

    /** What the broker image reference must look like: pinned by digest, and harmless inside a shell word. */
    private static final Pattern PINNED = Pattern.compile("[a-z0-9][a-z0-9./:_-]*@sha256:[0-9a-f]{64}");
    private static final String SPEC_START = "cat > /etc/keel/node-spec.json <<'KEEL_NODE_SPEC'\n";
    private static final String SPEC_END = "\nKEEL_NODE_SPEC\n";

    private BootScript() {
    }

    /** The script for {@code nodeSpecJson} (one line of JSON, as {@link Json#write} writes it) and the broker image. */
    public static String render(String brokerImage, String nodeSpecJson) {
        if (brokerImage == null || !PINNED.matcher(brokerImage).matches()) {
            throw new ProvisioningException("NO_BROKER_IMAGE", "The broker image must be pinned as "
                    + "registry/repository@sha256:<64 hex>, not " + brokerImage + ".", false);
        }
        if (nodeSpecJson.contains("\n")) {
            throw new IllegalArgumentException("the node spec must be one line of JSON");
        }
        // A private ECR registry, which Docker reaches only after logging in with the instance role.
        String login = EcrRepository.of(brokerImage)
                .map(ecr -> "aws ecr get-login-password --region " + ecr.region()
                        + " | docker login --username AWS --password-stdin " + ecr.registry() + "\n")
                .orElse("");
        return "#!/bin/bash\n"
                + "# Keel broker: the node spec below, run by the Keel broker image below (broker-image/README.md).\n"
                + "set -euo pipefail\n"
                + "install -d -m 0700 /etc/keel /var/lib/keel-agent\n"
                + "umask 077\n"
                + SPEC_START + nodeSpecJson + SPEC_END
                + "dnf install -y docker\n"
                + "systemctl enable --now docker\n"
                + "BROKER_IMAGE='" + brokerImage + "'\n"
                + login
                + "until docker pull \"$BROKER_IMAGE\"; do sleep 15; done\n"
                + "docker run -d --name keel-broker --restart unless-stopped --network host --privileged \\\n"
                + "  -v /etc/keel:/etc/keel:ro -v /var/lib/keel-agent:/var/lib/keel-agent -v /dev:/dev \\\n"
                + "  \"$BROKER_IMAGE\" --spec /etc/keel/node-spec.json --work-dir /var/lib/keel-agent\n";
    }

    /** The node spec JSON a script carries, or null when {@code userData} is no boot script. */
    public static String nodeSpec(String userData) {
        int start = userData.indexOf(SPEC_START);
        int end = start < 0 ? -1 : userData.indexOf(SPEC_END, start + SPEC_START.length());
        return end < 0 ? null : userData.substring(start + SPEC_START.length(), end);
    }

    /** The broker image a script runs, or null when {@code userData} is no boot script. */
    public static String brokerImage(String userData) {
        Matcher m = Pattern.compile("(?m)^BROKER_IMAGE='([^']+)'$").matcher(userData);
        return m.find() ? m.group(1) : null;
    }
}
