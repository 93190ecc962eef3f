package dev.keel.controlplane.settings;

import java.util.List;

/** The settings that stop the control plane from starting, one line each. */
class UnsafeSettingsException extends IllegalStateException {

    private final List<String> problems;

    UnsafeSettingsException(List<String> problems) {
        super("Refusing to start: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    List<String> problems() {
        return problems;
    }
}
