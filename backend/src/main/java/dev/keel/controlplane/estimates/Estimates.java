package dev.keel.controlplane.estimates;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

import org.springframework.stereotype.Service;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;
import dev.keel.controlplane.instances.FsxSpec;
import dev.keel.controlplane.instances.NetworkSpec;
import dev.keel.controlplane.instances.Instance;
import dev.keel.controlplane.instances.SpecRules;
import dev.keel.controlplane.shared.ApiException;

@Service
class Estimates {

    private static final int DEFAULT_RETENTION_HOURS = 72;

    private final SizingCatalogs catalogs;

    Estimates(SizingCatalogs catalogs) {
        this.catalogs = catalogs;
    }

    CostEstimate forSpec(EstimateRequest request) {
        SizingCatalog catalog = catalogs.current();
        int zones = Objects.requireNonNullElse(request.zones(), 0);
        new SpecRules(catalog)
                .region(request.region())
                .capacity("zones", zones, request.wal(), request.aku(), request.fsx())
                .orThrow();
        return estimate(catalog, request.region(), zones, request.wal().type(), request.aku(), request.fsx(),
                Objects.requireNonNullElse(request.s3GatewayEndpoint(), NetworkSpec.DEFAULT_S3_GATEWAY_ENDPOINT),
                request.workload(), "workload.", request.assumptions(), "assumptions.");
    }

    /** The workload and assumptions come from query parameters, so errors name them bare. */
    CostEstimate forInstance(Instance instance, SizingCatalog catalog, Workload workload, EstimateAssumptions assumptions) {
        return estimate(catalog, instance.region(), instance.spec().network().zones(), instance.spec().wal().type(),
                instance.spec().aku(), instance.spec().fsx(), instance.spec().network().s3GatewayEndpoint(), workload, "",
                assumptions, "");
    }

    /** With {@code s3} {@code NONE}, Keel leaves the VPC's routing alone: the brokers' S3 traffic is priced through a NAT gateway. */
    private CostEstimate estimate(SizingCatalog catalog, String region, int zones, WalType wal, int aku, FsxSpec fsx,
                                  S3GatewayEndpointMode s3, Workload requested, String workloadPrefix,
                                  EstimateAssumptions asked, String assumptionsPrefix) {
        SizingCatalog.RegionPrices prices = catalog.prices().regions().get(region);
        if (prices == null) {
            throw ApiException.validation("region", "catalog v" + catalog.version() + " has no prices for " + region
                    + " yet; estimates are available for " + catalog.prices().regions().keySet());
        }
        Workload given = requested == null ? new Workload(null, null, null) : requested;
        Workload workload = withDefaults(catalog, catalog.capacityOf(aku), given, workloadPrefix);
        EstimateAssumptions chosen = asked == null ? EstimateAssumptions.NONE_GIVEN : asked;
        EstimateAssumptions assumptions = withDefaults(catalog, prices, chosen, assumptionsPrefix);
        Set<String> named = new HashSet<>(given.given());
        named.addAll(chosen.given());
        return new CostEstimator(catalog, prices).estimate(region, zones, wal, aku,
                fsx == null ? null : fsx.throughputMBps(), fsx == null ? null : fsx.count(),
                s3 == S3GatewayEndpointMode.NONE, workload, assumptions, named);
    }

    /** A reserved price is only offered where the catalog records one for the comparison's instance type. */
    private static EstimateAssumptions withDefaults(SizingCatalog catalog, SizingCatalog.RegionPrices prices,
                                                    EstimateAssumptions asked, String fieldPrefix) {
        EstimateAssumptions assumptions = asked.withDefaults();
        String kafkaType = catalog.costModel().selfManagedKafka().instanceType();
        double ratio = assumptions.compressionRatio();
        new SpecRules(catalog)
                .check(assumptions.purchaseOption() == PurchaseOption.ON_DEMAND
                                || prices.ec2Reserved1YearNoUpfrontHourlyUsd().containsKey(kafkaType),
                        fieldPrefix + EstimateAssumptions.PURCHASE_OPTION, "catalog v" + catalog.version()
                                + " has no 1-year no-upfront reserved price for " + kafkaType + " in this region; use "
                                + PurchaseOption.ON_DEMAND)
                .check(ratio >= EstimateAssumptions.MIN_COMPRESSION_RATIO && ratio <= EstimateAssumptions.MAX_COMPRESSION_RATIO,
                        fieldPrefix + EstimateAssumptions.COMPRESSION_RATIO, "must be between "
                                + (long) EstimateAssumptions.MIN_COMPRESSION_RATIO + " and "
                                + (long) EstimateAssumptions.MAX_COMPRESSION_RATIO + " (uncompressed bytes per stored byte)")
                .orThrow();
        return assumptions;
    }

    private static Workload withDefaults(SizingCatalog catalog, SizingCatalog.Capacity capacity, Workload given,
                                         String fieldPrefix) {
        Workload workload = new Workload(Objects.requireNonNullElse(given.writeMiBps(), capacity.writeMiBps()),
                Objects.requireNonNullElse(given.readMiBps(), capacity.readMiBps()),
                Objects.requireNonNullElse(given.retentionHours(), DEFAULT_RETENTION_HOURS));
        new SpecRules(catalog)
                .check(workload.writeMiBps() > 0 && workload.writeMiBps() <= Workload.MAX_MIBPS, fieldPrefix + "writeMiBps",
                        "must be greater than 0 and at most " + (long) Workload.MAX_MIBPS)
                .check(workload.readMiBps() >= 0 && workload.readMiBps() <= Workload.MAX_MIBPS, fieldPrefix + "readMiBps",
                        "must be between 0 and " + (long) Workload.MAX_MIBPS)
                .check(workload.retentionHours() >= 1 && workload.retentionHours() <= Workload.MAX_RETENTION_HOURS,
                        fieldPrefix + "retentionHours", "must be between 1 and " + Workload.MAX_RETENTION_HOURS)
                .orThrow();
        return workload;
    }
}
