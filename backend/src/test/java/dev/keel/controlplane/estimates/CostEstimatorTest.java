package dev.keel.controlplane.estimates;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.WalType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.data.Percentage.withPercentage;

/**
 * The estimate must reproduce the published comparison (PRODUCT.md; us-east-1, 1 GiB/s in and out,
 * 3-day retention, P99 write under 10 ms) within 5 % on every line, from catalog data alone.
 */
class CostEstimatorTest {

    private static final SizingCatalog CATALOG = new SizingCatalogs().current();
    private static final Workload ONE_GIB_PER_SECOND_THREE_DAYS = new Workload(1024.0, 1024.0, 72);
    static final EstimateAssumptions DEFAULTS = EstimateAssumptions.NONE_GIVEN.withDefaults();

    private final CostEstimate estimate = new CostEstimator(CATALOG, CATALOG.prices().regions().get("us-east-1"))
            .estimate("us-east-1", 3, WalType.FSWAL, 52, 1536, 2, false, ONE_GIB_PER_SECOND_THREE_DAYS, DEFAULTS, Set.of());

    @Test
    void disklessWithFsxWalMatchesThePublishedTable() {
        Map<String, CostEstimate.Line> lines = byItem(estimate.diskless());
        assertThat(lines.get("compute").quantity()).isEqualTo(45);
        assertThat(lines.get("compute").monthlyUsd()).isCloseTo(2_681, withPercentage(5));
        assertThat(lines.get("fsx").quantity()).isEqualTo(2);
        assertThat(lines.get("fsx").monthlyUsd()).isCloseTo(8_255, withPercentage(5));
        assertThat(lines.get("s3-api").quantity()).isCloseTo(1_568_916_000, withPercentage(5));
        assertThat(lines.get("s3-api").monthlyUsd()).isCloseTo(1_655, withPercentage(5));
        assertThat(lines.get("s3-storage").quantity() / 1024).as("TiB stored").isCloseTo(253, withPercentage(5));
        assertThat(lines.get("s3-storage").monthlyUsd()).isCloseTo(5_754, withPercentage(5));
        assertThat(lines.get("cross-az").monthlyUsd()).isZero();
        assertThat(estimate.diskless().totalMonthlyUsd()).isCloseTo(18_345, withPercentage(5));
    }

    @Test
    void selfManagedKafkaMatchesThePublishedTable() {
        Map<String, CostEstimate.Line> lines = byItem(estimate.selfManagedKafka());
        assertThat(lines.get("compute").quantity()).isCloseTo(95, withPercentage(5));
        assertThat(lines.get("compute").monthlyUsd()).isCloseTo(17_476, withPercentage(5));
        assertThat(lines.get("ebs-storage").quantity() / 1024).as("TiB of replicas").isCloseTo(1_518, withPercentage(5));
        assertThat(lines.get("ebs-storage").monthlyUsd()).isCloseTo(124_416, withPercentage(5));
        // The published table has one cross-AZ line; ours parts the consumers' share from producers' and replication's.
        double crossAzGiB = lines.get("cross-az").quantity() + lines.get("cross-az-consumers").quantity();
        double crossAzUsd = lines.get("cross-az").monthlyUsd() + lines.get("cross-az-consumers").monthlyUsd();
        assertThat(crossAzGiB).as("GiB a month").isCloseTo(8_760_000, withPercentage(5));
        assertThat(crossAzUsd).isCloseTo(175_200, withPercentage(5));
        assertThat(estimate.selfManagedKafka().totalMonthlyUsd()).isCloseTo(317_092, withPercentage(5));
    }

    @Test
    void savingsAreThePublishedNinetyFourPercent() {
        assertThat(estimate.savingsPercent()).isCloseTo(94.2, within(0.5));
    }

    @Test
    void theServiceFeeIsTheListingPricePerAkuHourAndCountsAgainstTheSavings() {
        double hours = CATALOG.prices().hoursPerMonth();
        double usdPerAkuHour = CATALOG.listing().usdPerAkuHour();
        assertThat(estimate.serviceFee().item()).isEqualTo("service-fee");
        assertThat(estimate.serviceFee().quantity()).isEqualTo(52 * hours);
        assertThat(estimate.serviceFee().monthlyUsd()).isCloseTo(52 * hours * usdPerAkuHour, within(0.01));
        double withFee = estimate.diskless().totalMonthlyUsd() + estimate.serviceFee().monthlyUsd();
        assertThat(estimate.savingsPercentWithServiceFee())
                .isCloseTo(100 * (1 - withFee / estimate.selfManagedKafka().totalMonthlyUsd()), within(0.01))
                .isLessThan(estimate.savingsPercent());
    }

    @Test
    void aSingleZoneInstancePaysNoCrossZoneTrafficOnEitherSide() {
        CostEstimate single = new CostEstimator(CATALOG, CATALOG.prices().regions().get("us-east-1"))
                .estimate("us-east-1", 1, WalType.EBS, 3, null, null, false, new Workload(60.0, 60.0, 24), DEFAULTS, Set.of());
        assertThat(byItem(single.selfManagedKafka()).get("cross-az").monthlyUsd()).isZero();
        assertThat(byItem(single.selfManagedKafka()).get("cross-az-consumers").monthlyUsd()).isZero();
        assertThat(byItem(single.diskless())).containsKey("ebs-storage").doesNotContainKey("fsx");
    }

    @Test
    void withoutAnS3GatewayEndpointTheS3TrafficPaysTheNatGatewayByTheGb() {
        var prices = CATALOG.prices().regions().get("us-east-1");
        Workload workload = new Workload(60.0, 60.0, 72);
        CostEstimate viaEndpoint = new CostEstimator(CATALOG, prices)
                .estimate("us-east-1", 3, WalType.S3, 3, null, null, false, workload, DEFAULTS, Set.of());
        CostEstimate viaNat = new CostEstimator(CATALOG, prices)
                .estimate("us-east-1", 3, WalType.S3, 3, null, null, true, workload, DEFAULTS, Set.of());

        assertThat(byItem(viaEndpoint.diskless())).doesNotContainKey("nat-gateway");
        CostEstimate.Line nat = byItem(viaNat.diskless()).get("nat-gateway");
        // 60 MiB/s for a 730-hour month is 153,984 GiB produced; uploaded once and read back once.
        double written = 60.0 / 1024 * CATALOG.prices().hoursPerMonth() * 3600;
        assertThat(written).isCloseTo(153_984, within(1.0));
        assertThat(nat.quantity()).isCloseTo(2 * written, within(0.01));
        assertThat(nat.unit()).isEqualTo("GiB processed");
        assertThat(nat.monthlyUsd()).isCloseTo(2 * written * 0.045, within(0.01));
        assertThat(viaNat.diskless().totalMonthlyUsd())
                .isCloseTo(viaEndpoint.diskless().totalMonthlyUsd() + nat.monthlyUsd(), within(0.01));
        assertThat(viaNat.savingsPercent()).isLessThan(viaEndpoint.savingsPercent());
    }

    static Map<String, CostEstimate.Line> byItem(CostEstimate.Breakdown breakdown) {
        return breakdown.lines().stream().collect(Collectors.toMap(CostEstimate.Line::item, Function.identity()));
    }
}
