package dev.keel.controlplane.settings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

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

    /** Add a setting here; any but an {@code EVERY_PROFILE} one gets its development value in application-local.yaml. */
    static final List<RequiredSetting> REQUIRED = List.of(
            new RequiredSetting("keel.provisioning.driver", "KEEL_PROVISIONING_DRIVER", Scope.EVERY_PROFILE,
                    "the provisioning driver: aws provisions in customers' accounts"),
            new RequiredSetting("keel.ingest.secret", "KEEL_INGEST_SECRET", Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "signs the tokens broker agents report with; at least 32 random characters"),
            new RequiredSetting("keel.control-plane.aws-account-id", "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID",
                    Scope.OUTSIDE_LOCAL_DEVELOPMENT,
                    "the AWS account the control plane runs in, which customers' role trust policies name"),
            new RequiredSetting("keel.provisioning.aws.broker-repository", "KEEL_BROKER_REPOSITORY",
                    Scope.OUTSIDE_LOCAL_DEVELOPMENT, "where brokers pull the Keel broker image from (registry/repository),"
                    + " by the digest the catalog records for their version"),
            new RequiredSetting("keel.provisioning.aws.development-broker-image", "KEEL_DEVELOPMENT_BROKER_IMAGE",
                    Scope.LOCAL_DEVELOPMENT_ONLY, "a broker image for every version that no customer's machine can"
                    + " pull; leave it out and publish the broker image"));

    private final List<RequiredSetting> required;
    private final PropertySource<?> developmentValues;

    ProductionSettings(List<RequiredSetting> required, PropertySource<?> developmentValues) {
        for (RequiredSetting setting : required) {
            if (setting.scope() != Scope.EVERY_PROFILE && !developmentValues.containsProperty(setting.property())) {
                // Without it the local profile would not start, and a copy of the value elsewhere would go unnoticed.
                throw new IllegalStateException(developmentValues.getName() + " has no development value for "
                        + setting.property());
            }
        }
        this.required = List.copyOf(required);
        this.developmentValues = developmentValues;
    }

    /** The shipped list, with the development values of the shipped application-local.yaml. */
    static ProductionSettings shipped() {
        return new ProductionSettings(REQUIRED, localDevelopmentValues());
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
            if (local && setting.scope() == Scope.OUTSIDE_LOCAL_DEVELOPMENT) {
                continue;
            }
            if (value.isBlank()) {
                problems.add(describe(setting, "is not set"));
            } else if (setting.scope() == Scope.OUTSIDE_LOCAL_DEVELOPMENT
                    && value.equals(Objects.toString(developmentValues.getProperty(setting.property()), null))) {
                problems.add(describe(setting, "has the local-development value"));
            }
        }
        return problems;
    }

    private static String describe(RequiredSetting setting, String what) {
        return setting.variable() + " (" + setting.property() + ") " + what + ": " + setting.purpose();
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
