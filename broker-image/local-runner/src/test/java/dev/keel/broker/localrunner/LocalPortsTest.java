package dev.keel.broker.localrunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class LocalPortsTest {
    @Test
    void deterministicDistinctAndInRange() {
        UUID id = UUID.fromString("3f2a8c1e-5b7d-4e9f-a1c3-0d2e4f6a8b9c");
        assertThat(LocalPorts.of(id, 2)).isEqualTo(LocalPorts.of(id, 2));
        Set<Integer> ports = new HashSet<>();
        for (int n = 0; n < LocalPorts.MAX_NODES; n++) {
            LocalPorts p = LocalPorts.of(id, n);
            assertThat(ports.add(p.listener()) && ports.add(p.controller()) && ports.add(p.internal())
                    && ports.add(p.jmx())).isTrue();
            assertThat(p.jmx()).isLessThan(LocalPorts.BASE + LocalPorts.SLOTS * LocalPorts.STRIDE);
        }
        assertThatThrownBy(() -> LocalPorts.of(id, LocalPorts.MAX_NODES)).hasMessageContaining("at most");
    }

    @Test
    void noSlotReachesThePortsOutgoingConnectionsAreGiven() {
        int highest = LocalPorts.BASE + (LocalPorts.SLOTS - 1) * LocalPorts.STRIDE + (LocalPorts.MAX_NODES - 1) * LocalPorts.PER_NODE
                + LocalPorts.PER_NODE - 1;
        assertThat(highest).isLessThan(LocalPorts.EPHEMERAL_START);
        for (int i = 0; i < 5_000; i++) {
            assertThat(LocalPorts.of(UUID.randomUUID(), LocalPorts.MAX_NODES - 1).jmx()).isLessThan(LocalPorts.EPHEMERAL_START);
        }
    }
}
