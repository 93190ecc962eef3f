package dev.keel.broker.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the node's EBS WAL volume and checks it before the broker writes to it raw.
 *
 * <p>On Nitro instances the device the launch asked for ({@code /dev/sdf}) appears as {@code /dev/nvmeXn1}; the
 * requested name is kept in the NVMe controller's vendor data, and Amazon Linux's udev rules (ebsnvme-id) add a
 * {@code /dev/sdf} → {@code nvmeXn1} symlink. Without those rules (e.g. a Debian host) the agent matches the
 * volume by serial: {@code /dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_vol<id>} (the serial is the volume id),
 * given the volume id. Order tried: the spec's name, its {@code xvd} twin, the by-id link of {@code volumeId}.
 *
 * <p>Checks: a block device ({@code /sys/class/block/<name>} exists), not mounted ({@code /proc/mounts}), and at
 * least the WAL capacity ({@code /sys/class/block/<name>/size} × 512). {@code root} is "/" on a host and a fake
 * tree in tests.
 */
public final class EbsWalPreparer implements WalPreparer {
    private final Path root;
    private final String volumeId;

    public EbsWalPreparer(Path root) {
        this(root, null);
    }

    public EbsWalPreparer(Path root, String volumeId) {
        this.root = root;
        this.volumeId = volumeId;
    }

    @Override
    public PreparedWal prepare(NodeSpec spec, NodeIdentity self) throws IOException {
        List<String> tried = new ArrayList<>();
        Path device = find(spec.walDevice(), tried)
                .orElseThrow(() -> new IOException("EBS WAL device not found; tried " + tried
                        + " (is the volume attached as " + spec.walDevice() + "?)"));
        String name = device.getFileName().toString();
        Path sys = root.resolve("sys/class/block").resolve(name);
        if (!Files.exists(sys)) {
            throw new IOException(device + " is not a block device (no " + sys + ")");
        }
        String devPath = "/dev/" + name;
        for (String line : readLines(root.resolve("proc/mounts"))) {
            String source = line.split("\\s+")[0];
            if (source.equals(devPath) || source.startsWith(devPath + "p")) {
                throw new IOException(devPath + " is mounted (" + line.trim() + "): the WAL needs the raw device");
            }
        }
        Path sizeFile = sys.resolve("size");
        if (Files.exists(sizeFile)) {
            long bytes = Long.parseLong(Files.readString(sizeFile).trim()) * 512L;
            if (bytes < spec.walCapacityBytes()) {
                throw new IOException(devPath + " has " + bytes + " bytes, less than the WAL capacity "
                        + spec.walCapacityBytes());
            }
        }
        return new PreparedWal(devPath, "EBS WAL on " + devPath + " (requested as " + spec.walDevice() + ")");
    }

    private Optional<Path> find(String requested, List<String> tried) throws IOException {
        String base = requested.substring("/dev/".length());
        List<String> names = new ArrayList<>(List.of(base));
        if (base.startsWith("sd")) {
            names.add("xvd" + base.substring(2));
        }
        for (String n : names) {
            Path p = root.resolve("dev").resolve(n);
            tried.add("/dev/" + n);
            if (Files.exists(p)) {
                return Optional.of(p.toRealPath());
            }
        }
        if (volumeId != null) {
            String serial = "nvme-Amazon_Elastic_Block_Store_" + volumeId.replace("-", "");
            Path byId = root.resolve("dev/disk/by-id").resolve(serial);
            tried.add("/dev/disk/by-id/" + serial);
            if (Files.exists(byId)) {
                return Optional.of(byId.toRealPath());
            }
        }
        return Optional.empty();
    }

    private static List<String> readLines(Path p) throws IOException {
        if (!Files.exists(p)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(p)) {
            return lines.toList();
        }
    }
}
