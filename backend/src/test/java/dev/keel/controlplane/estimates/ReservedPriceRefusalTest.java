package dev.keel.controlplane.estimates;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalog.RegionPrices;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.instances.WalSpec;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.provisioner.WalType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A reserved price nobody could source is left out of the catalog, never made up: an estimate that asks for it is
 * refused on the field, naming the instance type, while on-demand estimates still answer.
 */
class ReservedPriceRefusalTest {

    private static final SizingCatalog V1 = new SizingCatalogs().current();

    private final Estimates estimates = new Estimates(new SizingCatalogs() {
        @Override
        public SizingCatalog current() {
            return withoutReservedPrices(V1);
        }
    });

    @Test
    void aReservedEstimateWithoutTheCatalogsPriceIsRefusedOnTheField() {
        assertThatThrownBy(() -> estimates.forSpec(request(PurchaseOption.RESERVED_1_YEAR_NO_UPFRONT)))
                .isInstanceOfSatisfying(ApiException.class, refused -> assertThat(refused.errors())
                        .singleElement()
                        .satisfies(error -> {
                            assertThat(error.field()).isEqualTo("assumptions.purchaseOption");
                            assertThat(error.message()).contains("r5.xlarge", "ON_DEMAND");
                        }));
        assertThat(estimates.forSpec(request(PurchaseOption.ON_DEMAND)).selfManagedKafka().totalMonthlyUsd()).isPositive();
    }

    private static EstimateRequest request(PurchaseOption option) {
        return new EstimateRequest("us-east-1", 3, new WalSpec(WalType.S3), 6, null, null, null,
                new EstimateAssumptions(option, null, null));
    }

    private static SizingCatalog withoutReservedPrices(SizingCatalog catalog) {
        RegionPrices p = catalog.prices().regions().get("us-east-1");
        RegionPrices onDemandOnly = new RegionPrices(p.ec2HourlyUsd(), Map.of(), p.fsxOntapMultiAz(), p.s3(),
                p.ebsGp3UsdPerGiBMonth(), p.crossAzUsdPerGiB(), p.natGateway());
        return new SizingCatalog(catalog.version(), catalog.aku(), catalog.fsx(), catalog.fsxMaxCount(), catalog.walTypes(),
                catalog.regions(), catalog.compute(), catalog.brokerVersions(), catalog.listing(),
                new SizingCatalog.Prices(catalog.prices().currency(), catalog.prices().hoursPerMonth(),
                        Map.of("us-east-1", onDemandOnly)),
                catalog.costModel());
    }
}
