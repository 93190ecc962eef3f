package dev.keel.controlplane.provisioning;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BrokerImagesTest {

    @Test
    void mapsEachVersionToItsImage() {
        assertThat(BrokerImages.parse(List.of("1.7.4=ami-0aaa", " 1.4.1 = ami-0bbb")))
                .isEqualTo(Map.of("1.7.4", "ami-0aaa", "1.4.1", "ami-0bbb"));
    }

    @Test
    void refusesAnEntryThatIsNotVersionEqualsAmi() {
        assertThatThrownBy(() -> BrokerImages.parse(List.of("ami-0aaa")))
                .hasMessageContaining("'ami-0aaa' is not version=ami-id");
        assertThatThrownBy(() -> BrokerImages.parse(List.of("1.7.4=automqinc/automq:1.7.4")))
                .hasMessageContaining("is not version=ami-id");
    }

    @Test
    void refusesAVersionGivenTwice() {
        assertThatThrownBy(() -> BrokerImages.parse(List.of("1.7.4=ami-0aaa", "1.7.4=ami-0bbb")))
                .hasMessageContaining("version 1.7.4 is given twice");
    }
}
