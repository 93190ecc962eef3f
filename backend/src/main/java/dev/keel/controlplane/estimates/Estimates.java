package dev.keel.controlplane.estimates;

import java.util.Objects;

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
                request.workload(), "workload.");
    }

    /** The workload comes from query parameters, so errors name them bare. */
    CostEstimate forInstance(Instance instance, SizingCatalog catalog, Workload workload) {
        return estimate(catalog, instance.region(), instance.spec().network().zones(), instance.spec().wal().type(),
                instance.spec().aku(), instance.spec().fsx(), instance.spec().network().s3GatewayEndpoint(), workload, "");
    }

    /** With {@code s3} {@code NONE}, Keel leaves the VPC's routing alone: the brokers' S3 traffic is priced through a NAT gateway. */
    private CostEstimate estimate(SizingCatalog catalog, String region, int zones, WalType wal, int aku, FsxSpec fsx,
                                  S3GatewayEndpointMode s3, Workload requested, String fieldPrefix) {
        SizingCatalog.RegionPrices prices = catalog.prices().regions().get(region);
        if (prices == null) {
            throw ApiException.validation("region", "catalog v" + catalog.version() + " has no prices for " + region
                    + " yet; estimates are available for " + catalog.prices().regions().keySet());
        }
        Workload workload = withDefaults(catalog, catalog.capacityOf(aku), requested, fieldPrefix);
        return new CostEstimator(catalog, prices).estimate(region, zones, wal, aku,
                fsx == null ? null : fsx.throughputMBps(), fsx == null ? null : fsx.count(),
                s3 == S3GatewayEndpointMode.NONE, workload);
    }

    private static Workload withDefaults(SizingCatalog catalog, SizingCatalog.Capacity capacity, Workload requested,
                                         String fieldPrefix) {
        Workload given = requested == null ? new Workload(null, null, null) : requested;
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
