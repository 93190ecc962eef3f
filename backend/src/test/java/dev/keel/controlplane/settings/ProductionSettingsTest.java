package dev.keel.controlplane.settings;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.mock.env.MockEnvironment;

import dev.keel.controlplane.settings.RequiredSetting.Scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProductionSettingsTest {

    private final ProductionSettings settings = ProductionSettings.shipped();

    @Test
    void outsideLocalDevelopmentEveryMissingSettingIsNamedInOneFailure() {
        assertThatThrownBy(() -> settings.check(new MockEnvironment()))
                .isInstanceOfSatisfying(UnsafeSettingsException.class, refused -> assertThat(refused.problems())
                        .hasSize(11)
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_DB_URL (spring.datasource.url) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_DB_USERNAME (spring.datasource.username) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_DB_PASSWORD (spring.datasource.password) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith(
                                "KEEL_ISSUER_URI (spring.security.oauth2.resourceserver.jwt.issuer-uri) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_PROVISIONING_DRIVER (keel.provisioning.driver) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_INGEST_SECRET (keel.ingest.secret) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_SECRETS_KEY (keel.secrets.key) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith(
                                "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID (keel.control-plane.aws-account-id) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith(
                                "KEEL_BROKER_REPOSITORY (keel.provisioning.aws.broker-repository) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith(
                                "KEEL_MARKETPLACE_PRODUCT_CODE (keel.marketplace.product-code) is not set"))
                        .anySatisfy(p -> assertThat(p).startsWith("KEEL_CONSOLE_URL (keel.console.url) is not set")));
    }

    @Test
    void outsideLocalDevelopmentTheDevelopmentValuesAreRefused() {
        MockEnvironment environment = deployment("local-development-ingest-secret-0123456789", "000000000000")
                .withProperty("keel.secrets.key", "bG9jYWwtZGV2ZWxvcG1lbnQtc2VjcmV0cy1rZXktMzI=");

        assertThat(settings.problems(environment)).containsExactly(
                "KEEL_INGEST_SECRET (keel.ingest.secret) has the local-development value: signs the tokens broker agents"
                        + " report with; at least 32 random characters",
                "KEEL_SECRETS_KEY (keel.secrets.key) has the local-development value: encrypts instances' CA keys and"
                        + " Kafka users' passwords at rest; 32 random bytes in base64 (openssl rand -base64 32)",
                "KEEL_CONTROL_PLANE_AWS_ACCOUNT_ID (keel.control-plane.aws-account-id) has the local-development value:"
                        + " the AWS account the control plane runs in, which customers' role trust policies name");
    }

    @Test
    void outsideLocalDevelopmentTheDatabasePasswordMayNotBeTheDevelopmentOneButTheUserMay() {
        MockEnvironment environment = deployment("b1f0c7e29a5d4e38a6f1c0d9e7b2a4c8", "123456789012")
                .withProperty("spring.datasource.password", "keel");

        assertThat(environment.getProperty("spring.datasource.username")).isEqualTo("keel");
        assertThat(settings.problems(environment)).containsExactly(
                "KEEL_DB_PASSWORD (spring.datasource.password) has the local-development value: that database user's"
                        + " password");
    }

    @Test
    void aDeploymentThatGivesEverySettingStarts() {
        MockEnvironment environment = deployment("b1f0c7e29a5d4e38a6f1c0d9e7b2a4c8", "123456789012");

        assertThatNoException().isThrownBy(() -> settings.check(environment));
    }

    @Test
    void theLocalProfileCarriesDevelopmentValuesButNotTheDriver() {
        MockEnvironment environment = new MockEnvironment();
        environment.setActiveProfiles(ProductionSettings.LOCAL_PROFILE);

        assertThat(settings.problems(environment)).singleElement().asString()
                .startsWith("KEEL_PROVISIONING_DRIVER (keel.provisioning.driver) is not set");

        environment.setProperty("keel.provisioning.driver", "aws");
        assertThat(settings.problems(environment)).isEmpty();
    }

    @Test
    void aDriverThisControlPlaneDoesNotHaveIsRefused() {
        MockEnvironment environment = deployment("b1f0c7e29a5d4e38a6f1c0d9e7b2a4c8", "123456789012")
                .withProperty("keel.provisioning.driver", "gcp");

        // The tests' fixtures, on this path, add the no-cloud driver to the jar's own.
        assertThat(settings.problems(environment)).containsExactly(
                "KEEL_PROVISIONING_DRIVER (keel.provisioning.driver) is gcp, not one of the drivers here [aws, no-cloud]:"
                        + " the provisioning driver: aws provisions in customers' accounts");
        environment.setProperty("keel.provisioning.driver", "no-cloud");
        assertThat(settings.problems(environment)).isEmpty();
    }

    @Test
    void aBlankValueCountsAsMissing() {
        MockEnvironment environment = new MockEnvironment().withProperty("keel.provisioning.driver", " ");
        environment.setActiveProfiles(ProductionSettings.LOCAL_PROFILE);

        assertThat(settings.problems(environment)).singleElement().asString().contains("is not set");
    }

    @Test
    void aSettingWithoutADevelopmentValueCannotBeListedForOutsideLocalDevelopmentOnly() {
        var setting = new RequiredSetting("keel.example", "KEEL_EXAMPLE", Scope.OUTSIDE_LOCAL_DEVELOPMENT, "an example");

        assertThatThrownBy(() -> new ProductionSettings(List.of(setting), new MapPropertySource("local", Map.of()),
                Set.of("aws")))
                .hasMessage("local has no development value for keel.example");
    }

    @Test
    void theDevelopmentBrokerImageIsRefusedOutsideLocalDevelopmentAndItsRepositoryToo() {
        MockEnvironment environment = deployment("b1f0c7e29a5d4e38a6f1c0d9e7b2a4c8", "123456789012")
                .withProperty("keel.provisioning.aws.broker-repository", "keel-broker.invalid/development")
                .withProperty("keel.provisioning.aws.development-broker-image",
                        "keel-broker.invalid/development@sha256:" + "0".repeat(64));

        assertThat(settings.problems(environment)).containsExactly(
                "KEEL_BROKER_REPOSITORY (keel.provisioning.aws.broker-repository) has the local-development value:"
                        + " where brokers pull the Keel broker image from (registry/repository), by the digest the"
                        + " catalog records for their version",
                "KEEL_DEVELOPMENT_BROKER_IMAGE (keel.provisioning.aws.development-broker-image) is set outside local"
                        + " development: a broker image for every version that no customer's machine can pull; leave it"
                        + " out and publish the broker image");

        environment.setActiveProfiles(ProductionSettings.LOCAL_PROFILE);
        assertThat(settings.problems(environment)).isEmpty();
    }

    /** A deployment without a profile, with the AWS driver. */
    private static MockEnvironment deployment(String ingestSecret, String controlPlaneAccount) {
        return new MockEnvironment()
                .withProperty("keel.provisioning.driver", "aws")
                .withProperty("keel.ingest.secret", ingestSecret)
                .withProperty("keel.secrets.key", "q8Vw1n3Jc5ZQmR0tY7uE2xK9pL4sA6dF1gH3jB5nM0o=")
                .withProperty("keel.control-plane.aws-account-id", controlPlaneAccount)
                .withProperty("keel.provisioning.aws.broker-repository", "public.ecr.aws/keel/keel-broker")
                .withProperty("keel.marketplace.product-code", "8x1k7cbd3k0y9u4qzf2nq5m6e")
                .withProperty("keel.console.url", "https://console.keel.example")
                .withProperty("spring.datasource.url", "jdbc:postgresql://keel-db.internal:5432/keel")
                .withProperty("spring.datasource.username", "keel")
                .withProperty("spring.datasource.password", "9d3e5b7a1c2f4e6a8b0d")
                .withProperty("spring.security.oauth2.resourceserver.jwt.issuer-uri", "https://id.example.com/realms/keel");
    }
}
