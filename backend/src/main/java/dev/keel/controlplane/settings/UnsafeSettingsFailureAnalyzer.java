package dev.keel.controlplane.settings;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Prints the refused settings as Spring Boot's "APPLICATION FAILED TO START" report, without a stack trace. */
class UnsafeSettingsFailureAnalyzer extends AbstractFailureAnalyzer<UnsafeSettingsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsafeSettingsException cause) {
        return new FailureAnalysis(
                "Keel does not start without these settings:\n  - " + String.join("\n  - ", cause.problems()),
                "Set each one in the control plane's environment. For local development only, run with the '"
                        + ProductionSettings.LOCAL_PROFILE + "' profile (SPRING_PROFILES_ACTIVE="
                        + ProductionSettings.LOCAL_PROFILE + "), which carries development values for the rest.",
                cause);
    }
}
