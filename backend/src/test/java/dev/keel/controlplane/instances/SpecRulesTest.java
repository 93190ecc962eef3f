package dev.keel.controlplane.instances;

import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.WalType;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** One test per rule of DESIGN.md § Domain, each asserting the field and message users see. */
class SpecRulesTest {

    private static final SizingCatalog CATALOG = new SizingCatalogs().current();
    private static final NetworkSpec ONE_ZONE = network("us-east-1a");
    private static final NetworkSpec THREE_ZONES = network("us-east-1a", "us-east-1b", "us-east-1c");

    @Test
    void aValidSpecPassesEveryRule() {
        assertThatCode(() -> rules().name("name", "orders-prod").region("us-east-1").network("us-east-1", THREE_ZONES)
                .capacity("network.subnets", 3, wal(WalType.FSWAL), 6, new FsxSpec(768, 1))
                .brokerVersion("1.4.1", wal(WalType.FSWAL)).orThrow()).doesNotThrowAnyException();
    }

    @Test
    void nameMustBeDnsSafeAndThreeToSixtyFourCharacters() {
        assertRejected(r -> r.name("name", "ab"), "name", "must be 3 to 64 characters");
        assertRejected(r -> r.name("name", "Orders_Prod"), "name", "lowercase letters, digits and hyphens");
        assertRejected(r -> r.name("name", "orders-"), "name", "end with a letter or digit");
        assertRejected(r -> r.name("name", "a".repeat(65)), "name", "must be 3 to 64 characters");
        assertRejected(r -> r.name("name", null), "name", "is required");
    }

    @Test
    void regionMustBeOneTheCatalogSupports() {
        assertRejected(r -> r.region("mars-north-1"), "region", "'mars-north-1' is not a supported region");
    }

    @Test
    void vpcIdMustLookLikeAVpc() {
        assertRejected(r -> r.network("us-east-1", new NetworkSpec("my-vpc", ONE_ZONE.subnets(), NetworkSpec.DEFAULT_S3_GATEWAY_ENDPOINT)),
                "network.vpcId", "must be a VPC id");
    }

    @Test
    void zonesAreOneOrThree() {
        assertRejected(r -> r.network("us-east-1", network("us-east-1a", "us-east-1b")),
                "network.subnets", "an instance spans 1 or 3 zones, one subnet in each; got 2");
        assertRejected(r -> r.capacity("zones", 2, wal(WalType.S3), 3, null), "zones", "must be 1 or 3");
    }

    @Test
    void subnetIdsMustLookLikeSubnetsAndBeDistinct() {
        assertRejected(r -> r.network("us-east-1", new NetworkSpec("vpc-0a1b2c3d4e5f67890",
                List.of(new NetworkSpec.Subnet("us-east-1a", "subnet-x")), NetworkSpec.DEFAULT_S3_GATEWAY_ENDPOINT)), "network.subnets[0].subnetId", "must be a subnet id");
        NetworkSpec twice = new NetworkSpec("vpc-0a1b2c3d4e5f67890", List.of(
                new NetworkSpec.Subnet("us-east-1a", "subnet-00000000000000000"),
                new NetworkSpec.Subnet("us-east-1b", "subnet-00000000000000000"),
                new NetworkSpec.Subnet("us-east-1c", "subnet-00000000000000002")), NetworkSpec.DEFAULT_S3_GATEWAY_ENDPOINT);
        assertRejected(r -> r.network("us-east-1", twice), "network.subnets[1].subnetId", "is listed twice");
    }

    @Test
    void subnetsMustBeInZonesOfTheRegion() {
        assertRejected(r -> r.network("us-east-1", network("eu-west-1a")),
                "network.subnets[0].availabilityZone", "must be a zone of region us-east-1");
    }

    @Test
    void subnetsMustBeInDistinctZones() {
        assertRejected(r -> r.network("us-east-1", network("us-east-1a", "us-east-1b", "us-east-1a")),
                "network.subnets[2].availabilityZone", "zone us-east-1a already holds network.subnets[0]");
    }

    @Test
    void walTypeIsRequired() {
        assertRejected(r -> r.capacity("zones", 1, null, 3, null), "wal.type", "is required");
    }

    @Test
    void ebsWalNeedsExactlyOneZone() {
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.EBS), 3, null), "wal.type",
                "EBS WAL is zonal and needs exactly 1 zone; with 3 zones use S3 or FSWAL");
        assertThatCode(() -> rules().capacity("zones", 1, wal(WalType.EBS), 3, null).orThrow()).doesNotThrowAnyException();
    }

    @Test
    void fswalNeedsThreeZones() {
        assertRejected(r -> r.capacity("zones", 1, wal(WalType.FSWAL), 3, new FsxSpec(384, 1)), "wal.type",
                "FSWAL needs 3 zones (FSx for ONTAP Multi-AZ); with 1 zone use EBS or S3");
    }

    @Test
    void s3WalWorksWithOneOrThreeZones() {
        assertThatCode(() -> rules().capacity("zones", 1, wal(WalType.S3), 3, null).orThrow()).doesNotThrowAnyException();
        assertThatCode(() -> rules().capacity("zones", 3, wal(WalType.S3), 3, null).orThrow()).doesNotThrowAnyException();
    }

    @Test
    void akuMustBeWithinTheCatalogRange() {
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.S3), 2, null), "aku", "must be between 3 and 500; got 2");
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.S3), 501, null), "aku", "must be between 3 and 500; got 501");
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.S3), null, null), "aku", "is required");
    }

    @Test
    void fsxIsRequiredForFswalAndRefusedOtherwise() {
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.FSWAL), 3, null), "fsx", "is required for FSWAL");
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.S3), 3, new FsxSpec(384, 1)), "fsx",
                "applies only to FSWAL instances");
    }

    @Test
    void fsxThroughputMustBeABenchmarkedSpec() {
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.FSWAL), 3, new FsxSpec(500, 1)),
                "fsx.throughputMBps", "must be one of [384, 768, 1536] MBps");
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.FSWAL), 3, new FsxSpec(3072, 1)),
                "fsx.throughputMBps", "3072 MBps has no benchmarked Kafka write capacity yet");
    }

    @Test
    void fsxCountMustBeWithinLimits() {
        assertRejected(r -> r.capacity("zones", 3, wal(WalType.FSWAL), 3, new FsxSpec(384, 0)),
                "fsx.count", "must be between 1 and 10; got 0");
    }

    @Test
    void fsxWriteCapacityMustCoverTheAkuWriteThroughputAndTheErrorSuggestsTheFix() {
        List<FieldError> errors = errors(r -> r.capacity("zones", 3, wal(WalType.FSWAL), 9, new FsxSpec(384, 1)));
        assertThat(errors).containsExactly(new FieldError("fsx.count",
                "9 AKU need 180 MiB/s of WAL write capacity but 1 × 384 MBps FSx gives 150 MiB/s; "
                        + "use 2 × 384 MBps or 1 × 768 MBps, or lower AKU to 7."));
        assertThatCode(() -> rules().capacity("zones", 3, wal(WalType.FSWAL), 7, new FsxSpec(384, 1)).orThrow())
                .doesNotThrowAnyException();
    }

    @Test
    void brokerVersionMustBeOffered() {
        assertRejected(r -> r.brokerVersion("0.9", wal(WalType.S3)), "brokerVersion",
                "'0.9' is not offered; choose one of [1.7.4, 1.4.1]");
    }

    @Test
    void brokerVersionMustRunTheWalType() {
        assertRejected(r -> r.brokerVersion("1.7.4", wal(WalType.FSWAL)), "brokerVersion",
                "AutoMQ 1.7.4 runs only the [S3] WAL; FSWAL needs [1.4.1], or leave brokerVersion out to get the right one");
        assertThatCode(() -> rules().brokerVersion("1.4.1", wal(WalType.EBS)).orThrow()).doesNotThrowAnyException();
    }

    @Test
    void withoutABrokerVersionEachWalTypeGetsTheNewestThatRunsIt() {
        assertThat(CATALOG.defaultBrokerVersion(WalType.S3)).isEqualTo("1.7.4");
        assertThat(CATALOG.defaultBrokerVersion(WalType.EBS)).isEqualTo("1.4.1");
        assertThat(CATALOG.defaultBrokerVersion(WalType.FSWAL)).isEqualTo("1.4.1");
    }

    @Test
    void allBrokenRulesAreReportedTogether() {
        List<FieldError> errors = errors(r -> r.name("name", "x").capacity("zones", 3, wal(WalType.EBS), 1, null));
        assertThat(errors).extracting(FieldError::field).containsExactly("name", "wal.type", "aku");
    }

    private static SpecRules rules() {
        return new SpecRules(CATALOG);
    }

    private static void assertRejected(Consumer<SpecRules> rule, String field, String message) {
        assertThat(errors(rule)).anySatisfy(error -> {
            assertThat(error.field()).isEqualTo(field);
            assertThat(error.message()).contains(message);
        });
    }

    private static List<FieldError> errors(Consumer<SpecRules> rule) {
        SpecRules rules = rules();
        rule.accept(rules);
        ApiException refused = catchThrowableOfType(ApiException.class, rules::orThrow);
        assertThat(refused).as("the rule should refuse").isNotNull();
        assertThat(refused.type().status().value()).isEqualTo(400);
        return refused.errors();
    }

    private static WalSpec wal(WalType type) {
        return new WalSpec(type);
    }

    private static NetworkSpec network(String... zones) {
        List<NetworkSpec.Subnet> subnets = new java.util.ArrayList<>();
        for (int i = 0; i < zones.length; i++) {
            subnets.add(new NetworkSpec.Subnet(zones[i], "subnet-0000000000000000" + i));
        }
        return new NetworkSpec("vpc-0a1b2c3d4e5f67890", subnets, NetworkSpec.DEFAULT_S3_GATEWAY_ENDPOINT);
    }
}
