package dev.keel.controlplane.estimates;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalog.RegionPrices;
import dev.keel.controlplane.catalog.SizingCatalog.StorageTier;
import dev.keel.provisioner.WalType;
import dev.keel.controlplane.estimates.CostEstimate.Breakdown;
import dev.keel.controlplane.estimates.CostEstimate.Line;

/**
 * Prices a spec from the catalog's price table and cost model; no figure lives in code. Diskless
 * Kafka pays for brokers, its WAL, S3 storage and requests; self-managed Kafka pays for over-
 * provisioned brokers, three replicas on block storage and cross-zone replication and client traffic.
 */
final class CostEstimator {

    private static final double MIB_PER_GIB = 1024;
    private static final double GIB_PER_TIB = 1024;
    private static final double SECONDS_PER_HOUR = 3600;

    private final SizingCatalog catalog;
    private final RegionPrices prices;
    private final double hours;

    CostEstimator(SizingCatalog catalog, RegionPrices prices) {
        this.catalog = catalog;
        this.prices = prices;
        this.hours = catalog.prices().hoursPerMonth();
    }

    /**
     * {@code s3ThroughNat}: no S3 gateway endpoint is sure to be on the subnets' route tables. {@code workload} and
     * {@code assumptions} carry every value (defaults applied); {@code given} names those the caller gave.
     */
    CostEstimate estimate(String region, int zones, WalType wal, int aku, Integer fsxThroughput, Integer fsxCount,
                          boolean s3ThroughNat, Workload workload, EstimateAssumptions assumptions, Set<String> given) {
        // Producers' compressed batches are what brokers store and move; broker counts follow the rates as given.
        double compression = assumptions.compressionRatio();
        double writtenGiBPerMonth = workload.writeMiBps() / compression / MIB_PER_GIB * hours * SECONDS_PER_HOUR;
        double storedGiB = workload.writeMiBps() / compression / MIB_PER_GIB * workload.retentionHours() * SECONDS_PER_HOUR;
        Breakdown diskless = diskless(zones, wal, aku, fsxThroughput, fsxCount, writtenGiBPerMonth, storedGiB,
                s3ThroughNat);
        Line fee = serviceFee(aku);
        Breakdown kafka = selfManaged(zones, workload, assumptions, storedGiB);
        List<CostEstimate.Assumption> stated = new AssumptionStatements(catalog, prices, given)
                .state(zones, wal, s3ThroughNat, workload, assumptions);
        return new CostEstimate(catalog.prices().currency(), catalog.version(), region, workload, stated, diskless, fee,
                kafka, savings(diskless.totalMonthlyUsd(), kafka),
                savings(diskless.totalMonthlyUsd() + fee.monthlyUsd(), kafka));
    }

    private Line serviceFee(int aku) {
        double usdPerAkuHour = catalog.listing().usdPerAkuHour();
        double akuHours = aku * hours;
        return line("service-fee", "Keel at $" + cents(usdPerAkuHour) + " per AKU-hour (the listing's price)", akuHours,
                "AKU-hours", akuHours * usdPerAkuHour);
    }

    /** A price as written on a price list: at least two decimals, and every decimal it has. */
    static String cents(double usd) {
        BigDecimal price = BigDecimal.valueOf(usd).stripTrailingZeros();
        return price.setScale(Math.max(2, price.scale())).toPlainString();
    }

    private static double savings(double disklessMonthlyUsd, Breakdown kafka) {
        return kafka.totalMonthlyUsd() == 0 ? 0 : round(100 * (1 - disklessMonthlyUsd / kafka.totalMonthlyUsd()));
    }

    private Breakdown diskless(int zones, WalType wal, int aku, Integer fsxThroughput, Integer fsxCount,
                               double writtenGiBPerMonth, double storedGiB, boolean s3ThroughNat) {
        SizingCatalog.DisklessModel model = catalog.costModel().diskless();
        SizingCatalog.Sizing sizing = catalog.sizingOf(aku);
        List<Line> lines = new ArrayList<>();
        lines.add(compute(sizing.instanceType(), sizing.brokerCount()));
        if (wal == WalType.FSWAL) {
            var fsx = prices.fsxOntapMultiAz();
            double each = fsxThroughput * fsx.throughputUsdPerMBpsMonth() + fsx.ssdGiBPerFileSystem() * fsx.ssdUsdPerGiBMonth();
            lines.add(line("fsx", fsxCount + " × " + fsxThroughput + " MBps FSx for ONTAP Multi-AZ with "
                    + (int) fsx.ssdGiBPerFileSystem() + " GiB SSD", fsxCount, "file systems", fsxCount * each));
        }
        if (wal == WalType.EBS) {
            double gib = sizing.brokerCount() * model.ebsWalGiBPerBroker();
            lines.add(line("ebs-storage", "gp3 WAL volume per broker", gib, "GiB", gib * prices.ebsGp3UsdPerGiBMonth()));
        }
        lines.add(line("s3-storage", "Data in S3 for the retention period", storedGiB, "GiB", s3Storage(storedGiB)));
        double puts = writtenGiBPerMonth * model.s3PutsPerGiBWritten();
        if (wal == WalType.S3) {
            puts += sizing.brokerCount() * model.s3WalPutsPerBrokerSecond() * hours * SECONDS_PER_HOUR;
        }
        double gets = writtenGiBPerMonth * model.s3GetsPerGiBWritten();
        lines.add(line("s3-api", "S3 PUT and GET requests", puts + gets, "requests",
                puts / 1000 * prices.s3().putUsdPer1000() + gets / 1000 * prices.s3().getUsdPer1000()));
        lines.add(line("cross-az", zones == 1 ? "Single zone: no cross-zone traffic"
                : "Brokers share storage instead of replicating; clients read in their own zone", 0, "GiB", 0));
        if (s3ThroughNat) {
            lines.add(natGateway(writtenGiBPerMonth * model.s3TransferGiBPerGiBWritten()));
        }
        return breakdown(lines);
    }

    private Breakdown selfManaged(int zones, Workload workload, EstimateAssumptions assumptions, double storedGiB) {
        SizingCatalog.SelfManagedKafkaModel model = catalog.costModel().selfManagedKafka();
        int brokers = Math.max(model.replicationFactor(),
                (int) Math.ceil(workload.writeMiBps() / model.ingressMiBpsPerBroker() * model.computeHeadroomFactor()));
        double replicaGiB = storedGiB * model.replicationFactor() * model.storageHeadroomFactor();
        List<Line> lines = new ArrayList<>();
        lines.add(selfManagedCompute(model.instanceType(), brokers, assumptions.purchaseOption()));
        lines.add(line("ebs-storage", model.replicationFactor() + " replicas on gp3 with headroom", replicaGiB, "GiB",
                replicaGiB * prices.ebsGp3UsdPerGiBMonth()));
        double remoteShare = (zones - 1) / (double) zones;
        double movedMiBps = workload.writeMiBps() / assumptions.compressionRatio();
        double producedCrossAzMiBps = zones == 1 ? 0 : movedMiBps * remoteShare + movedMiBps * (model.replicationFactor() - 1);
        lines.add(crossAz("cross-az", "Replication and producers reaching leaders in other zones", producedCrossAzMiBps));
        if (!assumptions.followerFetching()) {
            double consumedCrossAzMiBps = zones == 1 ? 0
                    : workload.readMiBps() / assumptions.compressionRatio() * remoteShare;
            lines.add(crossAz("cross-az-consumers", "Consumers reading from leaders in other zones", consumedCrossAzMiBps));
        }
        return breakdown(lines);
    }

    private Line crossAz(String item, String description, double mibps) {
        double gib = mibps / MIB_PER_GIB * hours * SECONDS_PER_HOUR;
        return line(item, description, gib, "GiB", gib * prices.crossAzUsdPerGiB());
    }

    /** The purchase option applies to the comparison only: Keel's brokers scale with the instance, so they run on demand. */
    private Line selfManagedCompute(String instanceType, int count, PurchaseOption option) {
        if (option == PurchaseOption.ON_DEMAND) {
            return compute(instanceType, count);
        }
        Double hourly = prices.ec2Reserved1YearNoUpfrontHourlyUsd().get(instanceType);
        if (hourly == null) {
            throw new IllegalStateException("Catalog v" + catalog.version() + " has no 1-year reserved price for "
                    + instanceType);
        }
        return line("compute", count + " × " + instanceType + " reserved for 1 year, no upfront", count, "instances",
                count * hourly * hours);
    }

    /** The NAT gateway's per-GB processing of the brokers' S3 traffic; its hours are the VPC's, paid either way. */
    private Line natGateway(double gib) {
        SizingCatalog.NatGatewayPrices nat = prices.natGateway();
        if (nat == null) {
            throw new IllegalStateException("Catalog v" + catalog.version() + " has no NAT gateway price for this region");
        }
        return line("nat-gateway", "S3 traffic through a NAT gateway (no S3 gateway endpoint) at $"
                + cents(nat.usdPerGiBProcessed()) + " per GB processed", gib, "GiB processed", gib * nat.usdPerGiBProcessed());
    }

    private Line compute(String instanceType, int count) {
        Double hourly = prices.ec2HourlyUsd().get(instanceType);
        if (hourly == null) {
            throw new IllegalStateException("Catalog v" + catalog.version() + " has no price for " + instanceType);
        }
        return line("compute", count + " × " + instanceType + " on demand", count, "instances", count * hourly * hours);
    }

    /** S3 Standard charges each tier's price for the GiB that fall inside it. */
    private double s3Storage(double gib) {
        double cost = 0;
        double lower = 0;
        for (StorageTier tier : prices.s3().storageTiers()) {
            double upper = tier.upToTiB() == null ? Double.MAX_VALUE : tier.upToTiB() * GIB_PER_TIB;
            cost += Math.max(0, Math.min(gib, upper) - lower) * tier.usdPerGiBMonth();
            lower = upper;
        }
        return cost;
    }

    private static Line line(String item, String description, double quantity, String unit, double usd) {
        return new Line(item, description, round(quantity), unit, round(usd));
    }

    private static Breakdown breakdown(List<Line> lines) {
        return new Breakdown(List.copyOf(lines), round(lines.stream().mapToDouble(Line::monthlyUsd).sum()));
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }
}
