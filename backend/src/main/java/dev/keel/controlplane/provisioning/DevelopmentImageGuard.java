package dev.keel.controlplane.provisioning;

import java.util.Arrays;

/**
 * The development broker image names no image a customer's machine could pull: outside local development (the
 * {@code local} profile) a control plane configured with it would accept creates whose brokers cannot boot, so it
 * refuses to start instead.
 */
final class DevelopmentImageGuard {

    static final String LOCAL_PROFILE = "local";

    private DevelopmentImageGuard() {
    }

    static void check(String developmentImage, String[] activeProfiles) {
        if (!developmentImage.isBlank() && !Arrays.asList(activeProfiles).contains(LOCAL_PROFILE)) {
            throw new IllegalStateException(BrokerImages.DEVELOPMENT_IMAGE + " (KEEL_DEVELOPMENT_BROKER_IMAGE) is set "
                    + "but the '" + LOCAL_PROFILE + "' profile is not active: the development broker image is for local "
                    + "development only. Unset it, and publish the broker image (its digest in the catalog, "
                    + BrokerImages.REPOSITORY + " naming where brokers pull it from).");
        }
    }
}
