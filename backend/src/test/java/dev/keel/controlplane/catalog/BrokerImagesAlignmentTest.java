package dev.keel.controlplane.catalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog.BrokerVersion;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catalog offers broker versions and the broker image is built per version: the pins must agree, so an
 * instance never boots an image whose agent refuses its node spec.
 */
class BrokerImagesAlignmentTest {

    private static final Path DOCKERFILE = Path.of("..", "broker-image", "Dockerfile");
    private static final Pattern PINNED = Pattern.compile("automqinc/automq:([0-9.]+)@sha256:[0-9a-f]{64}");

    private final SizingCatalog catalog = new SizingCatalogs().current();

    @Test
    void everyRecordedImageIsTheUpstreamImageOfItsVersionPinnedByDigest() {
        for (BrokerVersion version : catalog.brokerVersions()) {
            if (version.image() != null) {
                Matcher pin = PINNED.matcher(version.image());
                assertThat(pin.matches()).as(version.image() + " is automqinc/automq:<tag>@sha256:<64 hex>").isTrue();
                assertThat(pin.group(1)).as("the tag of " + version.image()).isEqualTo(version.version());
            }
        }
    }

    @Test
    void theDockerfileBuildsTheDefaultVersionFromTheCatalogsPin() throws Exception {
        String dockerfile = Files.readString(DOCKERFILE);
        BrokerVersion standard = catalog.brokerVersions().stream().filter(BrokerVersion::isDefault).findFirst()
                .orElseThrow();
        assertThat(standard.image()).as("the default version has a pinned image").isNotNull();
        String built = "automqinc/automq:" + arg(dockerfile, "AUTOMQ_VERSION") + "@" + arg(dockerfile, "AUTOMQ_DIGEST");
        assertThat(built).isEqualTo(standard.image());
    }

    private static String arg(String dockerfile, String name) {
        Matcher m = Pattern.compile("(?m)^ARG " + name + "=(\\S+)$").matcher(dockerfile);
        assertThat(m.find()).as("ARG " + name + " with a default in " + DOCKERFILE).isTrue();
        return m.group(1);
    }
}
