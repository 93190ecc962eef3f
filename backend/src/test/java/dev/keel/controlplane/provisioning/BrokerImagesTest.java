package dev.keel.controlplane.provisioning;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog.BrokerVersion;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.WalType;

import static org.assertj.core.api.Assertions.assertThat;

class BrokerImagesTest {

    private static final String DIGEST = "sha256:" + "ab".repeat(32);
    private static final List<BrokerVersion> VERSIONS = List.of(
            new BrokerVersion("1.7.4", List.of(WalType.S3), true, "automqinc/automq:1.7.4@sha256:" + "cd".repeat(32),
                    DIGEST),
            new BrokerVersion("1.4.1", List.of(WalType.EBS, WalType.S3, WalType.FSWAL), false, null, null));

    @Test
    void aPublishedVersionIsPulledByItsDigestFromTheConfiguredRepository() {
        assertThat(BrokerImages.of(VERSIONS, "public.ecr.aws/keel/keel-broker", ""))
                .containsExactly(java.util.Map.entry("1.7.4", "public.ecr.aws/keel/keel-broker@" + DIGEST));
    }

    @Test
    void withoutARepositoryNoVersionHasAnImage() {
        assertThat(BrokerImages.of(VERSIONS, " ", "")).isEmpty();
    }

    @Test
    void theDevelopmentImageStandsInForEveryVersion() {
        String development = "keel-broker.invalid/development@sha256:" + "0".repeat(64);
        assertThat(BrokerImages.of(VERSIONS, "", development)).containsOnlyKeys("1.7.4", "1.4.1")
                .allSatisfy((version, image) -> assertThat(image).isEqualTo(development));
    }

    @Test
    void theShippedCatalogRecordsEachDigestAsSha256OrNone() {
        assertThat(new SizingCatalogs().brokerVersions()).extracting(BrokerVersion::brokerImageDigest)
                .allSatisfy(digest -> assertThat(digest).satisfiesAnyOf(
                        d -> assertThat(d).isNull(), d -> assertThat(d).matches("sha256:[0-9a-f]{64}")));
    }

    @Test
    void theCatalogReadsTheDigestButTheApiDoesNotShowIt() {
        String json = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(VERSIONS.getFirst());
        assertThat(json).contains("\"version\":\"1.7.4\"").doesNotContain("brokerImageDigest").doesNotContain(DIGEST);
    }
}
