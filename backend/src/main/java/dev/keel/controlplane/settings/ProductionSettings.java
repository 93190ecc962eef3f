package dev.keel.controlplane.settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertyResolver;
import org.springframework.core.env.PropertySourcesPropertyResolver;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.ClassUtils;

import dev.keel.controlplane.settings.RequiredSetting.Scope;

/**
 * The settings a deployment must give the control plane itself. Missing ones, and outside the local-development
 * profile development values, stop the start with one failure that names each of them: a control plane that guessed
 * would sign agents' tokens with a published secret, hand customers a template trusting LocalStack's account,
 * accept creates and provision nothing, or launch brokers that cannot pull their image.
 */
public final class ProductionSettings {

    /** The profile of {@code ./dev}, the tests and Docker Compose, whose development values live in its own file. */
    public static final String LOCAL_PROFILE = "local";

    private static final String DRIVER = "keel.provisioning.driver";
    /**
     * Each jar on the path lists the drivers it registers here, so the tests' fixtures add theirs where present
     * (ProvisioningDriverNamesTest holds each list to the drivers its jar's code registers).
     */
    static final String DRIVERS = "META-INF/keel/provisioning-drivers";

    /** Add a setting here; any but an {@code EVERY_PROFILE} one gets its development value in application-local.yaml. */
    static final List<RequiredSetting> REQUIRED = List.of(
            new RequiredSetting(DRIVER, "KEEL_PROVISIONING_DRIVER", Scope.EVERY_PROFILE,
                    "the provisioning driver: aws provisions in customers' accounts"),
            new RequiredSetting("spring.datasource.url", "KEEL_DB_URL", Scope.GIVEN_OUTSIDE_LOCAL_DEVELOPMENT,
                    "the control plane's PostgreSQL database (jdbc:postgresql://host:port/database)"),
            new RequiredSetting("spring.datasource.username", "KEEL_DB_USERNAME", Scope.GIVEN_OUTSIDE_LOCAL_DEVELOPMENT,
                    "the database user the control plane connects as"),
            new RequiredSetting("spring.datasource.password", "KEEL_DB_PASSWORD", Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "that database user's password"),
            new RequiredSetting("spring.security.oauth2.resourceserver.jwt.issuer-uri", "KEEL_ISSUER_URI",
                    Scope.GIVEN_OUTSIDE_LOCAL_DEVELOPMENT,
                    "the OpenID Connect issuer whose access tokens the API accepts"),
            new RequiredSetting("keel.ingest.secret", "KEEL_INGEST_SECRET", Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "signs the tokens broker agents report with; at least 32 random characters"),
            new RequiredSetting("keel.secrets.key", "KEEL_SECRETS_KEY", Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "encrypts instances' CA keys and Kafka users' passwords at rest; 32 random bytes in base64"
                    + " (openssl rand -base64 32)"),
            new RequiredSetting("keel.control-plane.aws-account-id", "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID",
                    Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "the AWS account the control plane runs in, which customers' role trust policies name"),
            new RequiredSetting("keel.marketplace.product-code", "KEEL_MARKETPLACE_PRODUCT_CODE",
                    Scope.OUTSIDE_LOCAL_DEVELOPMENT, "the product code AWS Marketplace gave the listing"),
            new RequiredSetting("keel.console.url", "KEEL_CONSOLE_URL", Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "where the console is served, which the Marketplace registration URL sends buyers on to"),
            new RequiredSetting("keel.provisioning.aws.broker-repository", "KEEL_BROKER_REPOSITORY",
                    Scope.OUTSIDE_LOCAL_DEVELOPMENT, "where brokers pull the Keel broker image from (registry/repository),"
                    + " by the digest the catalog records for their version"),
            new RequiredSetting("keel.provisioning.aws.development-broker-image", "KEEL_DEVELOPMENT_BROKER_IMAGE",
                    Scope.LOCAL_DEVELOPMENT_ONLY, "a broker image for every version that no customer's machine can"
                    + " pull; leave it out and publish the broker image"));

    /** Resolves every placeholder to its default: it has no values of its own. */
    private static final PropertyResolver DEFAULTS_ONLY = new PropertySourcesPropertyResolver(new MutablePropertySources());

    private final List<RequiredSetting> required;
    private final PropertySource<?> developmentValues;
    private final Set<String> drivers;

    ProductionSettings(List<RequiredSetting> required, PropertySource<?> developmentValues, Set<String> drivers) {
        for (RequiredSetting setting : required) {
            if (setting.scope() != Scope.EVERY_PROFILE && !developmentValues.containsProperty(setting.property())) {
                // Without it the local profile would not start, and a copy of the value elsewhere would go unnoticed.
                throw new IllegalStateException(developmentValues.getName() + " has no development value for "
                        + setting.property());
            }
        }
        this.required = List.copyOf(required);
        this.developmentValues = developmentValues;
        this.drivers = new TreeSet<>(drivers);
    }

    /** The shipped list, with the development values of the shipped application-local.yaml and the drivers at hand. */
    static ProductionSettings shipped() {
        return new ProductionSettings(REQUIRED, localDevelopmentValues(), driversOnThePath());
    }

    /** Throws {@link UnsafeSettingsException} naming every setting that is missing or a development value. */
    void check(Environment environment) {
        List<String> problems = problems(environment);
        if (!problems.isEmpty()) {
            throw new UnsafeSettingsException(problems);
        }
    }

    List<String> problems(Environment environment) {
        boolean local = environment.matchesProfiles(LOCAL_PROFILE);
        List<String> problems = new ArrayList<>();
        for (RequiredSetting setting : required) {
            String value = environment.getProperty(setting.property(), "");
            if (setting.scope() == Scope.LOCAL_DEVELOPMENT_ONLY) {
                if (!local && !value.isBlank()) {
                    problems.add(describe(setting, "is set outside local development"));
                }
                continue;
            }
            if (local && setting.scope() != Scope.EVERY_PROFILE) {
                continue;
            }
            if (value.isBlank()) {
                problems.add(describe(setting, "is not set"));
            } else if (setting.scope() == Scope.OUTSIDE_LOCAL_DEVELOPMENT
                    && value.equals(developmentValue(setting))) {
                problems.add(describe(setting, "has the local-development value"));
            } else if (setting.property().equals(DRIVER) && !drivers.contains(value)) {
                // Otherwise no driver bean exists, and the start fails later on a missing bean, naming none of this.
                problems.add(describe(setting, "is " + value + ", not one of the drivers here " + drivers));
            }
        }
        return problems;
    }

    /** What application-local.yaml gives when nothing overrides it: a {@code ${VARIABLE:default}} is its default. */
    private String developmentValue(RequiredSetting setting) {
        Object raw = developmentValues.getProperty(setting.property());
        return raw == null ? null : DEFAULTS_ONLY.resolvePlaceholders(raw.toString());
    }

    private static String describe(RequiredSetting setting, String what) {
        return setting.variable() + " (" + setting.property() + ") " + what + ": " + setting.purpose();
    }

    private static Set<String> driversOnThePath() {
        Set<String> names = new TreeSet<>();
        try {
            for (URL list : Collections.list(ClassUtils.getDefaultClassLoader().getResources(DRIVERS))) {
                names.addAll(driversIn(list));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** The driver names of one jar's list. */
    static Set<String> driversIn(URL list) throws IOException {
        try (InputStream in = list.openStream()) {
            Set<String> names = new TreeSet<>();
            new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#")).forEach(names::add);
            return names;
        }
    }

    private static PropertySource<?> localDevelopmentValues() {
        CompositePropertySource values = new CompositePropertySource("application-local.yaml");
        try {
            new YamlPropertySourceLoader().load("application-local.yaml", new ClassPathResource("application-local.yaml"))
                    .forEach(values::addPropertySource);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return values;
    }
}
