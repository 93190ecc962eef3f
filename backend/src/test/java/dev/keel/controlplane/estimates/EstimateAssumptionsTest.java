package dev.keel.controlplane.estimates;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.estimates.CostEstimate.Assumption;
import dev.keel.controlplane.estimates.CostEstimate.Line;
import dev.keel.controlplane.estimates.CostEstimate.Source;
import dev.keel.provisioner.WalType;

import static dev.keel.controlplane.estimates.CostEstimatorTest.DEFAULTS;
import static dev.keel.controlplane.estimates.CostEstimatorTest.byItem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Each changeable assumption moves the figures it should, and only those: the purchase option the comparison's
 * compute, follower fetching its consumers' cross-zone traffic, compression every line that bills bytes.
 */
class EstimateAssumptionsTest {

    private static final SizingCatalog CATALOG = new SizingCatalogs().current();
    private static final SizingCatalog.RegionPrices PRICES = CATALOG.prices().regions().get("us-east-1");
    private static final Workload WORKLOAD = new Workload(1024.0, 2048.0, 72);

    /** Stays within S3's first storage tier even uncompressed, so S3 storage is priced in proportion to its GiB. */
    private static final Workload FIRST_TIER = new Workload(100.0, 200.0, 72);

    private static CostEstimate estimate(WalType wal, boolean s3ThroughNat, EstimateAssumptions assumptions) {
        return estimate(wal, s3ThroughNat, WORKLOAD, assumptions);
    }

    private static CostEstimate estimate(WalType wal, boolean s3ThroughNat, Workload workload, EstimateAssumptions assumptions) {
        return new CostEstimator(CATALOG, PRICES).estimate("us-east-1", 3, wal, 52, wal == WalType.FSWAL ? 1536 : null,
                wal == WalType.FSWAL ? 2 : null, s3ThroughNat, workload, assumptions, Set.of());
    }

    private static final CostEstimate BY_DEFAULT = estimate(WalType.FSWAL, false, DEFAULTS);

    @Test
    void reservedBrokersCostLessThanOnDemandAndChangeNothingElse() {
        CostEstimate reserved = estimate(WalType.FSWAL, false,
                new EstimateAssumptions(PurchaseOption.RESERVED_1_YEAR_NO_UPFRONT, false, 1.0));
        Line onDemand = byItem(BY_DEFAULT.selfManagedKafka()).get("compute");
        Line compute = byItem(reserved.selfManagedKafka()).get("compute");

        assertThat(compute.quantity()).isEqualTo(onDemand.quantity());
        assertThat(compute.monthlyUsd()).isLessThan(onDemand.monthlyUsd())
                .isCloseTo(compute.quantity() * 0.159 * CATALOG.prices().hoursPerMonth(), within(0.01));
        assertThat(compute.description()).contains("reserved for 1 year, no upfront");
        assertThat(withoutItem(reserved.selfManagedKafka(), "compute")).isEqualTo(withoutItem(BY_DEFAULT.selfManagedKafka(), "compute"));
        assertThat(reserved.diskless()).as("Keel's side stays on demand").isEqualTo(BY_DEFAULT.diskless());
        assertThat(reserved.savingsPercent()).isLessThan(BY_DEFAULT.savingsPercent());
    }

    @Test
    void followerFetchingRemovesExactlyTheConsumersCrossZoneLine() {
        CostEstimate sameZoneReads = estimate(WalType.FSWAL, false, new EstimateAssumptions(null, true, null).withDefaults());
        Line consumers = byItem(BY_DEFAULT.selfManagedKafka()).get("cross-az-consumers");
        // 2 GiB/s read, 2 of 3 bytes from a leader in another zone, for a 730-hour month at $0.02 per GiB.
        assertThat(consumers.quantity()).isCloseTo(2048.0 * 2 / 3 / 1024 * 730 * 3600, within(0.01));
        assertThat(consumers.monthlyUsd()).isPositive();

        assertThat(sameZoneReads.selfManagedKafka().lines())
                .isEqualTo(withoutItem(BY_DEFAULT.selfManagedKafka(), "cross-az-consumers"));
        assertThat(sameZoneReads.selfManagedKafka().totalMonthlyUsd())
                .isCloseTo(BY_DEFAULT.selfManagedKafka().totalMonthlyUsd() - consumers.monthlyUsd(), within(0.01));
        assertThat(sameZoneReads.diskless()).isEqualTo(BY_DEFAULT.diskless());
    }

    @Test
    void compressionDividesEveryLineThatBillsBytesOnBothSides() {
        double ratio = 4;
        EstimateAssumptions compressed = new EstimateAssumptions(null, null, ratio).withDefaults();
        assertDividedBy(ratio, estimate(WalType.FSWAL, false, FIRST_TIER, DEFAULTS),
                estimate(WalType.FSWAL, false, FIRST_TIER, compressed),
                List.of("s3-storage", "s3-api"), List.of("compute", "fsx", "cross-az"));
        assertDividedBy(ratio, estimate(WalType.EBS, true, FIRST_TIER, DEFAULTS), estimate(WalType.EBS, true, FIRST_TIER, compressed),
                List.of("s3-storage", "s3-api", "nat-gateway"), List.of("compute", "ebs-storage", "cross-az"));
    }

    private static void assertDividedBy(double ratio, CostEstimate plain, CostEstimate compressed,
                                        List<String> disklessBytes, List<String> disklessFixed) {
        Map<String, Line> before = byItem(plain.diskless());
        Map<String, Line> after = byItem(compressed.diskless());
        for (String item : disklessBytes) {
            assertThat(after.get(item).quantity()).as(item).isCloseTo(before.get(item).quantity() / ratio, within(1.0));
            assertThat(after.get(item).monthlyUsd()).as(item).isCloseTo(before.get(item).monthlyUsd() / ratio, within(0.02));
        }
        disklessFixed.forEach(item -> assertThat(after.get(item)).as(item).isEqualTo(before.get(item)));

        Map<String, Line> kafkaBefore = byItem(plain.selfManagedKafka());
        Map<String, Line> kafkaAfter = byItem(compressed.selfManagedKafka());
        for (String item : List.of("ebs-storage", "cross-az", "cross-az-consumers")) {
            assertThat(kafkaAfter.get(item).quantity()).as(item).isCloseTo(kafkaBefore.get(item).quantity() / ratio, within(1.0));
            assertThat(kafkaAfter.get(item).monthlyUsd()).as(item).isCloseTo(kafkaBefore.get(item).monthlyUsd() / ratio, within(0.02));
        }
        assertThat(kafkaAfter.get("compute")).as("brokers follow the rates as given").isEqualTo(kafkaBefore.get("compute"));
        assertThat(compressed.serviceFee()).isEqualTo(plain.serviceFee());
    }

    @Test
    void everyAssumptionIsListedWithWhereItCameFrom() {
        Map<String, Assumption> byDefault = byName(BY_DEFAULT);
        assertThat(byDefault.get("purchaseOption")).extracting(Assumption::value, Assumption::source)
                .containsExactly("ON_DEMAND", Source.DEFAULT);
        assertThat(byDefault.get("purchaseOption").statement()).contains("r5.xlarge", "on demand", "$0.252");
        assertThat(byDefault.get("followerFetching")).extracting(Assumption::value, Assumption::source)
                .containsExactly("false", Source.DEFAULT);
        assertThat(byDefault.get("compressionRatio")).extracting(Assumption::value, Assumption::source)
                .containsExactly("1", Source.DEFAULT);
        assertThat(byDefault.get("retentionHours").value()).isEqualTo("72");
        assertThat(byDefault.get("replicationFactor")).extracting(Assumption::value, Assumption::source)
                .containsExactly("3", Source.MODEL);
        assertThat(byDefault.get("computeHeadroom").statement()).contains("50 %");
        assertThat(byDefault.get("crossZoneProducerTraffic").value()).isEqualTo("2/3");
        assertThat(byDefault.get("keelCrossZoneTraffic").value()).isEqualTo("0");
        assertThat(byDefault).doesNotContainKey("natGatewayTraffic");
        assertThat(BY_DEFAULT.assumptions()).allSatisfy(a -> assertThat(a.statement()).isNotBlank().endsWith("."));

        EstimateAssumptions asked = new EstimateAssumptions(PurchaseOption.RESERVED_1_YEAR_NO_UPFRONT, true, 2.5);
        Map<String, Assumption> given = byName(new CostEstimator(CATALOG, PRICES).estimate("us-east-1", 3, WalType.S3, 6,
                null, null, true, WORKLOAD, asked, Set.of("purchaseOption", "followerFetching", "compressionRatio", "writeMiBps")));
        assertThat(given.get("purchaseOption")).extracting(Assumption::value, Assumption::source)
                .containsExactly("RESERVED_1_YEAR_NO_UPFRONT", Source.REQUEST);
        assertThat(given.get("purchaseOption").statement()).contains("$0.159");
        assertThat(given.get("followerFetching")).extracting(Assumption::value, Assumption::source)
                .containsExactly("true", Source.REQUEST);
        assertThat(given.get("compressionRatio")).extracting(Assumption::value, Assumption::source)
                .containsExactly("2.5", Source.REQUEST);
        assertThat(given.get("writeMiBps").source()).isEqualTo(Source.REQUEST);
        assertThat(given.get("readMiBps").source()).isEqualTo(Source.DEFAULT);
        assertThat(given.get("natGatewayTraffic").value()).isEqualTo("2 GiB per GiB");
        assertThat(given.get("s3Requests").statement()).contains("WAL uploads");
    }

    private static List<Line> withoutItem(CostEstimate.Breakdown breakdown, String item) {
        return breakdown.lines().stream().filter(line -> !line.item().equals(item)).toList();
    }

    private static Map<String, Assumption> byName(CostEstimate estimate) {
        return estimate.assumptions().stream().collect(Collectors.toMap(Assumption::name, Function.identity()));
    }
}
