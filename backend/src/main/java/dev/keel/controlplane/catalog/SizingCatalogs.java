package dev.keel.controlplane.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.stereotype.Component;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every catalog version shipped with the control plane. New instances are sized with the newest;
 * an existing instance keeps the version it was created with.
 */
@Component
public class SizingCatalogs {

    private final NavigableMap<Integer, SizingCatalog> versions;

    public SizingCatalogs() {
        this(load("classpath:catalog/v*.yaml"));
    }

    SizingCatalogs(Map<Integer, SizingCatalog> versions) {
        this.versions = new TreeMap<>(versions);
        if (this.versions.isEmpty()) {
            throw new IllegalStateException("No sizing catalog found under catalog/");
        }
    }

    public SizingCatalog current() {
        return versions.lastEntry().getValue();
    }

    public SizingCatalog version(int version) {
        SizingCatalog catalog = versions.get(version);
        if (catalog == null) {
            throw new IllegalStateException("Sizing catalog v" + version + " is not shipped with this build");
        }
        return catalog;
    }

    /** Every broker version a shipped catalog offers (instances keep theirs), as the newest catalog listing it says. */
    public List<SizingCatalog.BrokerVersion> brokerVersions() {
        Map<String, SizingCatalog.BrokerVersion> byVersion = new LinkedHashMap<>();
        versions.values().forEach(c -> c.brokerVersions().forEach(v -> byVersion.put(v.version(), v)));
        return List.copyOf(byVersion.values());
    }

    private static Map<Integer, SizingCatalog> load(String pattern) {
        YAMLMapper yaml = YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
        Map<Integer, SizingCatalog> catalogs = new TreeMap<>();
        try {
            for (Resource resource : new PathMatchingResourcePatternResolver().getResources(pattern)) {
                try (InputStream in = resource.getInputStream()) {
                    SizingCatalog catalog = yaml.readValue(in, SizingCatalog.class);
                    catalogs.put(catalog.version(), catalog);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return catalogs;
    }
}
