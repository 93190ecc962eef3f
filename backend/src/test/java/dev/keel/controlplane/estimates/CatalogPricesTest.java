package dev.keel.controlplane.estimates;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.WalType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every region a catalog offers has every price an estimate needs there. What "needs" means is the estimator's own
 * path: every spec a customer can pick in the region (each WAL type in each zone count it allows, each FSx throughput,
 * its S3 traffic through a gateway endpoint or a NAT gateway, the comparison's brokers on demand and reserved) is
 * priced, and a price the catalog lacks either stops the estimator or reads as zero, which a line that bills a quantity
 * must never show.
 */
class CatalogPricesTest {

    private static final Workload BUSY = new Workload(100.0, 200.0, 72);

    record Offered(SizingCatalog catalog, String region) {
        @Override
        public String toString() {
            return "v" + catalog.version() + " " + region;
        }
    }

    static List<Offered> offeredRegions() {
        SizingCatalogs catalogs = new SizingCatalogs();
        List<Offered> offered = new ArrayList<>();
        for (int version = 1; version <= catalogs.current().version(); version++) {
            SizingCatalog catalog = catalogs.version(version);
            catalog.regions().forEach(region -> offered.add(new Offered(catalog, region)));
        }
        return offered;
    }

    @ParameterizedTest
    @MethodSource("offeredRegions")
    void everySpecOfAnOfferedRegionIsPricedOnEveryLineThatBillsAQuantity(Offered offered) {
        SizingCatalog catalog = offered.catalog();
        SizingCatalog.RegionPrices prices = catalog.prices().regions().get(offered.region());
        assertThat(prices).as("catalog %s prices", offered).isNotNull();
        CostEstimator estimator = new CostEstimator(catalog, prices);
        int aku = catalog.aku().min();
        for (SizingCatalog.WalTypeOption wal : catalog.walTypes()) {
            for (int zones : wal.zones()) {
                for (Integer throughput : wal.type() == WalType.FSWAL ? fsxThroughputs(catalog) : nothing()) {
                    // Through an S3 gateway endpoint, or (the spec leaving routing alone) through a NAT gateway;
                    // the comparison's brokers bought each way an estimate offers.
                    for (boolean s3ThroughNat : List.of(false, true)) {
                        for (PurchaseOption option : PurchaseOption.values()) {
                            CostEstimate estimate = estimator.estimate(offered.region(), zones, wal.type(), aku, throughput,
                                    throughput == null ? null : 1, s3ThroughNat, BUSY,
                                    new EstimateAssumptions(option, false, 1.0), Set.of());
                            String spec = offered + " " + wal.type() + " in " + zones + " zone(s)"
                                    + (throughput == null ? "" : " with " + throughput + " MBps FSx")
                                    + (s3ThroughNat ? ", S3 through a NAT gateway" : "") + ", Kafka " + option;
                            assertEveryQuantityPriced(spec + ", diskless", estimate.diskless());
                            assertEveryQuantityPriced(spec + ", self-managed Kafka", estimate.selfManagedKafka());
                        }
                    }
                }
            }
        }
    }

    private static void assertEveryQuantityPriced(String what, CostEstimate.Breakdown breakdown) {
        assertThat(breakdown.lines()).as(what).isNotEmpty().allSatisfy(line -> {
            if (line.quantity() > 0) {
                assertThat(line.monthlyUsd()).as(what + ": " + line.item() + " (" + line.description() + ")")
                        .isPositive();
            }
        });
    }

    private static List<Integer> fsxThroughputs(SizingCatalog catalog) {
        return catalog.fsx().stream().map(SizingCatalog.FsxOption::throughputMBps).toList();
    }

    private static List<Integer> nothing() {
        List<Integer> none = new ArrayList<>();
        none.add(null);
        return none;
    }
}
