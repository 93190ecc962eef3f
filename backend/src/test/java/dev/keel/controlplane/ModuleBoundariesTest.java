package dev.keel.controlplane;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModules;

/** Feature packages may only use each other's top-level types, and never in a cycle. */
class ModuleBoundariesTest {

    @Test
    void modulesRespectTheirBoundaries() {
        ApplicationModules.of(KeelApplication.class).verify();
    }
}
