package dev.keel.controlplane.instances;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalog.FsxOption;
import dev.keel.provisioner.AccountNetwork;
import dev.keel.provisioner.WalType;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;

/**
 * Every rule an instance spec must satisfy, in one place: the API applies them to creates, updates
 * and estimates, and the console mirrors them. Each check adds field errors rather than stopping at
 * the first, so a form can show them all at once.
 */
public final class SpecRules {

    public static final int MAX_NAME_LENGTH = 64;
    public static final Pattern NAME = Pattern.compile("^[a-z][a-z0-9-]{1,62}[a-z0-9]$");
    private static final Pattern VPC = Pattern.compile("^vpc-[0-9a-f]{8,17}$");
    private static final Pattern SUBNET = Pattern.compile("^subnet-[0-9a-f]{8,17}$");
    private static final Pattern ZONE_SUFFIX = Pattern.compile("^[a-z]$");

    private final SizingCatalog catalog;
    private final List<FieldError> errors = new ArrayList<>();

    public SpecRules(SizingCatalog catalog) {
        this.catalog = catalog;
    }

    public SpecRules name(String field, String name) {
        if (name == null || name.isBlank()) {
            return reject(field, "is required");
        }
        if (!NAME.matcher(name).matches()) {
            reject(field, "must be 3 to 64 characters of lowercase letters, digits and hyphens, start with a letter "
                    + "and end with a letter or digit (it becomes part of DNS names)");
        }
        return this;
    }

    public SpecRules region(String region) {
        if (region == null || region.isBlank()) {
            return reject("region", "is required");
        }
        if (!catalog.regions().contains(region)) {
            reject("region", "'" + region + "' is not a supported region; choose one of " + catalog.regions());
        }
        return this;
    }

    public SpecRules network(String region, NetworkSpec network) {
        if (network == null) {
            return reject("network", "is required");
        }
        if (network.vpcId() == null || !VPC.matcher(network.vpcId()).matches()) {
            reject("network.vpcId", "must be a VPC id such as vpc-0a1b2c3d4e5f60789");
        }
        List<NetworkSpec.Subnet> subnets = network.subnets() == null ? List.of() : network.subnets();
        if (subnets.size() != 1 && subnets.size() != 3) {
            return reject("network.subnets", "an instance spans 1 or 3 zones, one subnet in each; got " + subnets.size());
        }
        Map<String, Integer> zoneUsedBy = new HashMap<>();
        Set<String> subnetIds = new HashSet<>();
        for (int i = 0; i < subnets.size(); i++) {
            NetworkSpec.Subnet subnet = subnets.get(i);
            String prefix = "network.subnets[" + i + "]";
            if (subnet == null) {
                reject(prefix, "is required");
                continue;
            }
            if (subnet.subnetId() == null || !SUBNET.matcher(subnet.subnetId()).matches()) {
                reject(prefix + ".subnetId", "must be a subnet id such as subnet-0a1b2c3d4e5f60789");
            } else if (!subnetIds.add(subnet.subnetId())) {
                reject(prefix + ".subnetId", "subnet " + subnet.subnetId() + " is listed twice");
            }
            String zone = subnet.availabilityZone();
            if (zone == null || region == null || !zone.startsWith(region)
                    || !ZONE_SUFFIX.matcher(zone.substring(region.length())).matches()) {
                reject(prefix + ".availabilityZone", "must be a zone of region " + region + ", such as " + region + "a");
            } else if (zoneUsedBy.putIfAbsent(zone, i) != null) {
                reject(prefix + ".availabilityZone", "zone " + zone + " already holds network.subnets["
                        + zoneUsedBy.get(zone) + "]; each subnet must be in a distinct zone");
            }
        }
        return this;
    }

    /**
     * The network as the customer's account has it ({@code vpcs}, read through its role): the VPC
     * exists, and each subnet exists, is in that VPC and is in the zone it is declared for.
     */
    public SpecRules existingNetwork(NetworkSpec network, List<AccountNetwork> vpcs, String where) {
        if (vpcs.stream().noneMatch(vpc -> vpc.vpcId().equals(network.vpcId()))) {
            reject("network.vpcId", "VPC " + network.vpcId() + " does not exist in " + where);
        }
        Map<String, String> vpcOf = new HashMap<>();
        Map<String, AccountNetwork.Subnet> subnets = new HashMap<>();
        vpcs.forEach(vpc -> vpc.subnets().forEach(subnet -> {
            vpcOf.put(subnet.subnetId(), vpc.vpcId());
            subnets.put(subnet.subnetId(), subnet);
        }));
        for (int i = 0; i < network.subnets().size(); i++) {
            NetworkSpec.Subnet declared = network.subnets().get(i);
            AccountNetwork.Subnet actual = subnets.get(declared.subnetId());
            String field = "network.subnets[" + i + "].subnetId";
            if (actual == null) {
                reject(field, "subnet " + declared.subnetId() + " does not exist in " + where);
            } else if (!vpcOf.get(declared.subnetId()).equals(network.vpcId())) {
                reject(field, "subnet " + declared.subnetId() + " is in " + vpcOf.get(declared.subnetId())
                        + ", not in network.vpcId " + network.vpcId());
            } else if (!actual.availabilityZone().equals(declared.availabilityZone())) {
                reject(field, "subnet " + declared.subnetId() + " is in zone " + actual.availabilityZone()
                        + ", not in " + declared.availabilityZone() + " as network.subnets[" + i + "] declares");
            }
        }
        return this;
    }

    /** WAL, AKU and FSx rules for an instance spanning {@code zones} zones. */
    public SpecRules capacity(String zonesField, int zones, WalSpec wal, Integer aku, FsxSpec fsx) {
        if (zones != 1 && zones != 3) {
            reject(zonesField, "must be 1 or 3");
        }
        WalType type = wal == null ? null : wal.type();
        if (type == null) {
            reject("wal.type", "is required: one of " + List.of(WalType.values()));
        } else if (!catalog.walType(type).map(option -> option.zones().contains(zones)).orElse(false)) {
            reject("wal.type", switch (type) {
                case EBS -> "EBS WAL is zonal and needs exactly 1 zone; with " + zones + " zones use S3 or FSWAL";
                case FSWAL -> "FSWAL needs 3 zones (FSx for ONTAP Multi-AZ); with " + zones + " zone use EBS or S3";
                case S3 -> "S3 WAL needs 1 or 3 zones";
            });
        }
        SizingCatalog.Aku limits = catalog.aku();
        if (aku == null) {
            reject("aku", "is required");
        } else if (aku < limits.min() || aku > limits.max()) {
            reject("aku", "must be between " + limits.min() + " and " + limits.max() + "; got " + aku);
        }
        if (type == WalType.FSWAL) {
            fsx(fsx, aku);
        } else if (fsx != null) {
            reject("fsx", "applies only to FSWAL instances; remove it or choose wal.type FSWAL");
        }
        return this;
    }

    public SpecRules brokerVersion(String version, WalSpec wal) {
        if (version == null) {
            return this;
        }
        var offered = catalog.brokerVersions().stream().filter(v -> v.version().equals(version)).findFirst();
        if (offered.isEmpty()) {
            return reject("brokerVersion", "'" + version + "' is not offered; choose one of "
                    + catalog.brokerVersions().stream().map(SizingCatalog.BrokerVersion::version).toList());
        }
        if (wal != null && wal.type() != null && !offered.get().walTypes().contains(wal.type())) {
            return reject("brokerVersion", "AutoMQ " + version + " runs only the " + offered.get().walTypes()
                    + " WAL; " + wal.type() + " needs " + catalog.brokerVersions().stream()
                    .filter(v -> v.walTypes().contains(wal.type())).map(SizingCatalog.BrokerVersion::version).toList()
                    + ", or leave brokerVersion out to get the right one");
        }
        return this;
    }

    /** A rule that is not about the spec's shape, such as a required reference. */
    public SpecRules check(boolean holds, String field, String message) {
        return holds ? this : reject(field, message);
    }

    public void orThrow() {
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
    }

    private void fsx(FsxSpec fsx, Integer aku) {
        if (fsx == null) {
            reject("fsx", "is required for FSWAL: the throughput of each FSx for ONTAP file system and their count");
            return;
        }
        Optional<FsxOption> option = fsx.throughputMBps() == null ? Optional.empty() : catalog.fsx(fsx.throughputMBps());
        if (option.isEmpty()) {
            reject("fsx.throughputMBps", "must be one of " + benchmarked().stream().map(FsxOption::throughputMBps).toList() + " MBps");
        } else if (!option.get().benchmarked()) {
            reject("fsx.throughputMBps", fsx.throughputMBps() + " MBps has no benchmarked Kafka write capacity yet; choose one of "
                    + benchmarked().stream().map(FsxOption::throughputMBps).toList() + " MBps");
        }
        if (fsx.count() == null) {
            reject("fsx.count", "is required");
        } else if (fsx.count() < 1 || fsx.count() > catalog.fsxMaxCount()) {
            reject("fsx.count", "must be between 1 and " + catalog.fsxMaxCount() + "; got " + fsx.count());
        } else if (aku != null && option.isPresent() && option.get().benchmarked()) {
            writeCapacity(option.get(), fsx.count(), aku);
        }
    }

    private void writeCapacity(FsxOption chosen, int count, int aku) {
        double needed = aku * catalog.aku().writeMiBps();
        double available = count * chosen.kafkaWriteMiBps();
        if (needed <= available) {
            return;
        }
        List<String> fixes = new ArrayList<>();
        fixes.add((int) Math.ceil(needed / chosen.kafkaWriteMiBps()) + " × " + chosen.throughputMBps() + " MBps");
        benchmarked().stream()
                .filter(o -> o.throughputMBps() > chosen.throughputMBps() && count * o.kafkaWriteMiBps() >= needed)
                .findFirst()
                .ifPresent(o -> fixes.add(count + " × " + o.throughputMBps() + " MBps"));
        String fix = String.join(" or ", fixes);
        int fittingAku = (int) Math.floor(available / catalog.aku().writeMiBps());
        if (fittingAku >= catalog.aku().min()) {
            fix += ", or lower AKU to " + fittingAku;
        }
        reject("fsx.count", "%d AKU need %s MiB/s of WAL write capacity but %d × %d MBps FSx gives %s MiB/s; use %s."
                .formatted(aku, number(needed), count, chosen.throughputMBps(), number(available), fix));
    }

    private List<FsxOption> benchmarked() {
        return catalog.fsx().stream().filter(FsxOption::benchmarked).toList();
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    private SpecRules reject(String field, String message) {
        errors.add(new FieldError(field, message));
        return this;
    }
}
