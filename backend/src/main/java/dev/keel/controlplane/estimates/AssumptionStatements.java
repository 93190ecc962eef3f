package dev.keel.controlplane.estimates;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalog.RegionPrices;
import dev.keel.controlplane.estimates.CostEstimate.Assumption;
import dev.keel.controlplane.estimates.CostEstimate.Source;
import dev.keel.provisioner.WalType;

import static dev.keel.controlplane.estimates.CostEstimator.cents;

/**
 * Says in words, with the catalog's own figures, what an estimate assumes: the changeable assumptions as given or
 * defaulted, the workload, and what the cost model fixes. Each sentence names what a published comparison would state,
 * so a reader can tell where ours and theirs differ.
 */
final class AssumptionStatements {

    private final SizingCatalog catalog;
    private final RegionPrices prices;
    private final Set<String> given;
    private final List<Assumption> stated = new ArrayList<>();

    AssumptionStatements(SizingCatalog catalog, RegionPrices prices, Set<String> given) {
        this.catalog = catalog;
        this.prices = prices;
        this.given = given;
    }

    List<Assumption> state(int zones, WalType wal, boolean s3ThroughNat, Workload workload, EstimateAssumptions assumptions) {
        SizingCatalog.SelfManagedKafkaModel kafka = catalog.costModel().selfManagedKafka();
        SizingCatalog.DisklessModel diskless = catalog.costModel().diskless();
        SizingCatalog.ComputeOption keelBrokers = catalog.compute().getFirst();

        changeable(EstimateAssumptions.PURCHASE_OPTION, assumptions.purchaseOption().name(),
                assumptions.purchaseOption() == PurchaseOption.ON_DEMAND
                        ? "Self-managed Kafka's " + kafka.instanceType() + " brokers are priced on demand, $"
                        + cents(prices.ec2HourlyUsd().get(kafka.instanceType())) + " an hour."
                        : "Self-managed Kafka's " + kafka.instanceType() + " brokers are priced as 1-year Standard Reserved "
                        + "Instances with no upfront payment, $" + cents(reservedHourly(kafka.instanceType()))
                        + " an hour, paid for every hour of the year whether they run or not.");
        changeable(EstimateAssumptions.FOLLOWER_FETCHING, String.valueOf(assumptions.followerFetching()),
                assumptions.followerFetching()
                        ? "Consumers read from a replica in their own zone (follower fetching, KIP-392: broker.rack and "
                        + "client.rack set): no consumer traffic crosses zones on self-managed Kafka."
                        : zones == 1 ? "Consumers read from each partition's leader; in a single zone none of it crosses zones."
                        : "Consumers read from each partition's leader: " + remote(zones) + " of the bytes they read cross "
                        + "zones on self-managed Kafka (line cross-az-consumers).");
        changeable(EstimateAssumptions.COMPRESSION_RATIO, number(assumptions.compressionRatio()),
                assumptions.compressionRatio() == 1
                        ? "Producers' bytes are stored and moved as they are produced, uncompressed (ratio 1)."
                        : "Producers compress " + number(assumptions.compressionRatio()) + ":1 and brokers keep batches "
                        + "compressed: every byte stored (S3, EBS replicas) and moved (across zones, S3 requests, a NAT "
                        + "gateway) is the workload's divided by " + number(assumptions.compressionRatio())
                        + ", on both sides.");
        changeable(Workload.WRITE_MIBPS, number(workload.writeMiBps()), "Producers write " + number(workload.writeMiBps())
                + " MiB/s around the clock (default: the AKU's write capacity, " + number(catalog.aku().writeMiBps())
                + " MiB/s per AKU).");
        changeable(Workload.READ_MIBPS, number(workload.readMiBps()), "Consumers read " + number(workload.readMiBps())
                + " MiB/s around the clock (default: the AKU's read capacity, " + number(catalog.aku().readMiBps())
                + " MiB/s per AKU).");
        changeable(Workload.RETENTION_HOURS, String.valueOf(workload.retentionHours()), "Data is kept "
                + workload.retentionHours() + " hours: one copy in S3 Standard for Keel, " + kafka.replicationFactor()
                + " replicas on EBS for self-managed Kafka.");

        fixed("hoursPerMonth", number(catalog.prices().hoursPerMonth()), "A month is " + number(catalog.prices().hoursPerMonth())
                + " hours, as AWS's pricing calculator counts it.");
        fixed("keelBrokers", keelBrokers.instanceType(), "Keel's brokers are " + keelBrokers.instanceType()
                + " on demand, $" + cents(prices.ec2HourlyUsd().get(keelBrokers.instanceType())) + " an hour, one per "
                + number(keelBrokers.akuPerBroker()) + " AKU and at least " + keelBrokers.minBrokers()
                + "; their count follows the AKU, not the workload.");
        fixed("selfManagedBrokers", kafka.instanceType(), "Self-managed Kafka runs " + kafka.instanceType()
                + " brokers taking " + number(kafka.ingressMiBpsPerBroker()) + " MiB/s of produce each (uncompressed), "
                + "at least as many as the replication factor.");
        fixed("computeHeadroom", number(kafka.computeHeadroomFactor()), "Self-managed brokers are over-provisioned "
                + percent(kafka.computeHeadroomFactor()) + " % for peaks and broker loss, as in the published comparison.");
        fixed("replicationFactor", String.valueOf(kafka.replicationFactor()), "Self-managed Kafka keeps "
                + kafka.replicationFactor() + " replicas of every partition, each in a different zone when there are 3.");
        fixed("storageHeadroom", number(kafka.storageHeadroomFactor()), "Self-managed Kafka's gp3 volumes, $"
                + cents(prices.ebsGp3UsdPerGiBMonth()) + " per GiB-month, are provisioned at "
                + number(kafka.storageHeadroomFactor()) + " × the replicas' data so they never fill.");
        fixed("crossZoneProducerTraffic", zones == 1 ? "0" : remote(zones), zones == 1
                ? "A single zone: no producer or replication traffic crosses zones."
                : "On self-managed Kafka, producers reach leaders in other zones for " + remote(zones) + " of their bytes, "
                + "and each byte is copied to " + (kafka.replicationFactor() - 1) + " followers in other zones (line cross-az).");
        fixed("crossZonePrice", cents(prices.crossAzUsdPerGiB()), "Each GiB that crosses zones costs $"
                + cents(prices.crossAzUsdPerGiB()) + " ($" + cents(prices.crossAzUsdPerGiB() / 2)
                + " out of one zone and $" + cents(prices.crossAzUsdPerGiB() / 2) + " into the other).");
        fixed("keelCrossZoneTraffic", "0", "Keel's brokers share S3" + (wal == WalType.FSWAL ? " and FSx" : "")
                + " instead of replicating to each other, and clients are served in their own zone: no cross-zone traffic "
                + "is priced for Keel.");
        fixed("s3Requests", number(diskless.s3PutsPerGiBWritten()) + " PUT + " + number(diskless.s3GetsPerGiBWritten())
                + " GET per GiB", "Keel's brokers make " + number(diskless.s3PutsPerGiBWritten()) + " PUT and "
                + number(diskless.s3GetsPerGiBWritten()) + " GET requests to S3 per GiB produced, as in AutoMQ's "
                + "published table" + (wal == WalType.S3 ? ", plus " + number(diskless.s3WalPutsPerBrokerSecond())
                + " WAL uploads per broker a second." : "."));
        if (s3ThroughNat) {
            fixed("natGatewayTraffic", number(diskless.s3TransferGiBPerGiBWritten()) + " GiB per GiB",
                    "Without an S3 gateway endpoint each GiB produced passes the NAT gateway "
                    + number(diskless.s3TransferGiBPerGiBWritten()) + " times (uploaded, then read back), at $"
                    + cents(prices.natGateway().usdPerGiBProcessed()) + " per GB.");
        }
        return List.copyOf(stated);
    }

    private double reservedHourly(String instanceType) {
        return prices.ec2Reserved1YearNoUpfrontHourlyUsd().get(instanceType);
    }

    private void changeable(String name, String value, String statement) {
        stated.add(new Assumption(name, value, given.contains(name) ? Source.REQUEST : Source.DEFAULT, statement));
    }

    private void fixed(String name, String value, String statement) {
        stated.add(new Assumption(name, value, Source.MODEL, statement));
    }

    private static String remote(int zones) {
        return (zones - 1) + "/" + zones;
    }

    private static String percent(double factor) {
        return number((factor - 1) * 100);
    }

    /** A figure as a person writes it: no trailing zeros, no exponent. */
    private static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
