package dev.keel.controlplane.provisioning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code keel.provisioning.aws.broker-images}: {@code version=ami-id} entries, one per broker version. */
final class BrokerImages {

    private BrokerImages() {
    }

    static Map<String, String> parse(List<String> entries) {
        Map<String, String> images = new LinkedHashMap<>();
        for (String entry : entries) {
            String[] parts = entry.trim().split("=", 2);
            if (parts.length != 2 || parts[0].isBlank() || !parts[1].trim().startsWith("ami-")) {
                throw new IllegalArgumentException("keel.provisioning.aws.broker-images: '" + entry
                        + "' is not version=ami-id (e.g. 1.7.4=ami-0123456789abcdef0)");
            }
            if (images.put(parts[0].trim(), parts[1].trim()) != null) {
                throw new IllegalArgumentException("keel.provisioning.aws.broker-images: version " + parts[0].trim()
                        + " is given twice");
            }
        }
        return images;
    }
}
