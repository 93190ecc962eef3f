package dev.keel.controlplane.catalog;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SizingCatalogTest {

    private final SizingCatalogs catalogs = new SizingCatalogs();

    @Test
    void versionOneDefinesTheAkuAsTheSeedDoes() {
        SizingCatalog v1 = catalogs.version(1);
        assertThat(v1.capacityOf(3)).isEqualTo(new SizingCatalog.Capacity(60, 60, 2_400, 3_375));
        assertThat(v1.aku().min()).isEqualTo(3);
        assertThat(v1.aku().max()).isEqualTo(500);
    }

    @Test
    void fsxWriteCapacityFollowsTheBenchmarkAndUnbenchmarkedSpecsSaySo() {
        SizingCatalog v1 = catalogs.version(1);
        assertThat(v1.fsx(384).orElseThrow().kafkaWriteMiBps()).isEqualTo(150);
        assertThat(v1.fsx(768).orElseThrow().kafkaWriteMiBps()).isEqualTo(300);
        assertThat(v1.fsx(1536).orElseThrow().kafkaWriteMiBps()).isEqualTo(600);
        assertThat(v1.fsx(3072).orElseThrow().benchmarked()).isFalse();
        assertThat(v1.fsx(6144).orElseThrow().benchmarked()).isFalse();
    }

    @Test
    void akuMapsToBrokersWithAFloorOfThree() {
        SizingCatalog v1 = catalogs.version(1);
        assertThat(v1.sizingOf(3)).isEqualTo(new SizingCatalog.Sizing("m7g.large", 3));
        assertThat(v1.sizingOf(6).brokerCount()).isEqualTo(6);
        assertThat(v1.sizingOf(52).brokerCount()).isEqualTo(45);
    }

    @Test
    void anUnknownVersionIsAnError() {
        assertThatThrownBy(() -> catalogs.version(99)).hasMessageContaining("v99 is not shipped");
    }
}
