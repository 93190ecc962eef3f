package dev.keel.controlplane.settings;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

/**
 * Runs {@link ProductionSettings} once the configuration is read and before any bean exists, so that no bean fails
 * first with a message about one setting while others are wrong too.
 */
class SettingsCheck implements ApplicationListener<ApplicationEnvironmentPreparedEvent>, Ordered {

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        ProductionSettings.shipped().check(event.getEnvironment());
    }

    /** After the configuration files are read and logging is set up, so the refusal is logged like the rest. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
