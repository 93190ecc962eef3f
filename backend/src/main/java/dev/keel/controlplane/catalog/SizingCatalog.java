package dev.keel.controlplane.catalog;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonProperty;

import dev.keel.provisioner.WalType;

/**
 * One version of the sizing catalog (a data file under {@code catalog/}): what an AKU is, what each
 * FSx throughput gives the WAL, how AKU maps to brokers, and the prices estimates use.
 */
public record SizingCatalog(int version, Aku aku, List<FsxOption> fsx, int fsxMaxCount, List<WalTypeOption> walTypes, List<String> regions,
                            List<ComputeOption> compute, List<BrokerVersion> brokerVersions, Listing listing, Prices prices,
                            CostModel costModel) {

    public record Aku(int min, int max, double writeMiBps, double readMiBps, double requestsPerSecond, int partitions) {
    }

    /** {@code kafkaWriteMiBps} is null for throughputs nobody has benchmarked yet. */
    public record FsxOption(int throughputMBps, Double kafkaWriteMiBps) {
        @JsonProperty
        public boolean benchmarked() {
            return kafkaWriteMiBps != null;
        }
    }

    public record WalTypeOption(WalType type, List<Integer> zones, String description) {
    }

    public record ComputeOption(String architecture, String instanceType, double akuPerBroker, int minBrokers) {
    }

    /**
     * {@code image}: the upstream AutoMQ image the version's Keel broker image is built from; {@code brokerImageDigest}:
     * the digest of that Keel broker image as published (null until it is), which brokers pull it by. The digest is
     * the control plane's to use, not the API's to show.
     */
    public record BrokerVersion(String version, List<WalType> walTypes, @JsonProperty("default") boolean isDefault,
                                String image,
                                @JsonProperty(access = JsonProperty.Access.WRITE_ONLY) String brokerImageDigest) {
    }

    /** What the product itself costs: the Marketplace listing's price, metered in AKU-hours. */
    public record Listing(double usdPerAkuHour) {
    }

    public record Prices(String currency, double hoursPerMonth, Map<String, RegionPrices> regions) {
    }

    /**
     * {@code ec2Reserved1YearNoUpfrontHourlyUsd}: the effective hourly price of a 1-year Standard Reserved Instance paid
     * with no upfront payment, for the instance types the self-managed comparison may price that way; a type missing
     * there cannot be priced reserved.
     */
    public record RegionPrices(Map<String, Double> ec2HourlyUsd, Map<String, Double> ec2Reserved1YearNoUpfrontHourlyUsd,
                               FsxPrices fsxOntapMultiAz, S3Prices s3, double ebsGp3UsdPerGiBMonth,
                               double crossAzUsdPerGiB, NatGatewayPrices natGateway) {
        public RegionPrices {
            ec2Reserved1YearNoUpfrontHourlyUsd = ec2Reserved1YearNoUpfrontHourlyUsd == null
                    ? Map.of() : ec2Reserved1YearNoUpfrontHourlyUsd;
        }
    }

    /** A NAT gateway's hour, and each GB it processes in either direction. */
    public record NatGatewayPrices(double usdPerHour, double usdPerGiBProcessed) {
    }

    public record FsxPrices(double throughputUsdPerMBpsMonth, double ssdUsdPerGiBMonth, double ssdGiBPerFileSystem) {
    }

    public record S3Prices(List<StorageTier> storageTiers, double putUsdPer1000, double getUsdPer1000) {
    }

    /** Applies to the GiB between the previous tier's bound and {@code upToTiB} (null: no bound). */
    public record StorageTier(Double upToTiB, double usdPerGiBMonth) {
    }

    public record CostModel(DisklessModel diskless, SelfManagedKafkaModel selfManagedKafka) {
    }

    public record DisklessModel(double s3PutsPerGiBWritten, double s3GetsPerGiBWritten, double s3WalPutsPerBrokerSecond,
                                double ebsWalGiBPerBroker, double s3TransferGiBPerGiBWritten) {
    }

    public record SelfManagedKafkaModel(String instanceType, double ingressMiBpsPerBroker, int replicationFactor,
                                        double computeHeadroomFactor, double storageHeadroomFactor) {
    }

    public Optional<FsxOption> fsx(int throughputMBps) {
        return fsx.stream().filter(option -> option.throughputMBps() == throughputMBps).findFirst();
    }

    public Optional<WalTypeOption> walType(WalType type) {
        return walTypes.stream().filter(option -> option.type() == type).findFirst();
    }

    /** The version a spec without one gets: the catalog's default when it runs {@code wal}, else the first listed that does. */
    public String defaultBrokerVersion(WalType wal) {
        return brokerVersions.stream().filter(v -> v.walTypes().contains(wal))
                .sorted(Comparator.comparing(v -> !v.isDefault())).findFirst().orElseThrow().version();
    }

    public Capacity capacityOf(int akus) {
        return new Capacity(akus * aku.writeMiBps(), akus * aku.readMiBps(), akus * aku.requestsPerSecond(),
                (long) akus * aku.partitions());
    }

    /** The benchmarked machine shape for an AKU count. */
    public Sizing sizingOf(int akus) {
        ComputeOption option = compute.getFirst();
        int brokers = Math.max(option.minBrokers(), (int) Math.ceil(akus / option.akuPerBroker()));
        return new Sizing(option.instanceType(), brokers);
    }

    public record Capacity(double writeMiBps, double readMiBps, double requestsPerSecond, long partitions) {
    }

    public record Sizing(String instanceType, int brokerCount) {
    }
}
