package dev.keel.controlplane.support;

/**
 * The servers a test run shares (started by {@code ./dev test}). A missing variable fails the test
 * with instructions rather than skipping it.
 */
public final class TestEnvironment {

    private TestEnvironment() {
    }

    public static String require(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set. Run the tests with ./dev test, which starts "
                    + "PostgreSQL and Keycloak for them and exports " + name + ".");
        }
        return value;
    }

    public static String keycloakUrl() {
        return require("KEEL_KEYCLOAK_URL");
    }

    public static String databaseUrl() {
        return require("KEEL_DB_URL");
    }
}
