package dev.keel.controlplane.provisioning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.keel.controlplane.catalog.SizingCatalog;

/**
 * The Keel broker image each broker version's brokers pull, pinned by digest: the catalog's published digest in the
 * repository the deployment names ({@code keel.provisioning.aws.broker-repository}), or, in local development only
 * (settings/ProductionSettings refuses it elsewhere), one development image for every version. A version with
 * neither has no image, and creates that need it are refused.
 */
final class BrokerImages {

    private BrokerImages() {
    }

    static Map<String, String> of(List<SizingCatalog.BrokerVersion> versions, String repository,
                                  String developmentImage) {
        Map<String, String> images = new LinkedHashMap<>();
        for (SizingCatalog.BrokerVersion version : versions) {
            if (!developmentImage.isBlank()) {
                images.put(version.version(), developmentImage.trim());
            } else if (version.brokerImageDigest() != null && !repository.isBlank()) {
                images.put(version.version(), repository.trim() + "@" + version.brokerImageDigest());
            }
        }
        return images;
    }
}
