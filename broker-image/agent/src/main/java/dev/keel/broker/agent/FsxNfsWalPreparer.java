package dev.keel.broker.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * FSWAL: mounts the node's FSx for ONTAP volume over NFSv4.1 and creates the node's WAL directory.
 *
 * <p>Mount options:
 * <ul>
 *   <li>{@code nfsvers=4.1} — NFSv4.1 on ONTAP ≥ 9.12.1 is what fixes the "silly rename" that crashes Kafka on
 *       NFSv3 (NetApp, "Kafka workloads on NetApp NFS", /work/shared/reference/netapp-kafka-nfs.txt, sections
 *       "NetApp solution for silly rename issue" and "Functional validation").</li>
 *   <li>{@code nconnect=16} — the same article mounts with {@code vers=4.1,nconnect=16} for performance
 *       ("OpenMessage Benchmarking configurations", and the FSx ONTAP benchmark: "mounted with 16 nconnect
 *       sessions and default options").</li>
 *   <li>{@code hard,timeo=600,retrans=2,noresvport} — Amazon FSx's generic Linux NFS client recommendations (not
 *       in the reference articles): never return I/O errors to the WAL on a failover, reconnect on a new source
 *       port after an HA takeover between zones.</li>
 *   <li>{@code rsize=wsize=1048576} — 1 MiB transfers, the ONTAP maximum.</li>
 * </ul>
 */
public final class FsxNfsWalPreparer implements WalPreparer {
    public static final String MOUNT_OPTIONS =
            "nfsvers=4.1,nconnect=16,hard,timeo=600,retrans=2,noresvport,rsize=1048576,wsize=1048576";

    private final CommandRunner commands;
    private final Path root;

    public FsxNfsWalPreparer(CommandRunner commands, Path root) {
        this.commands = commands;
        this.root = root;
    }

    public static String mountPoint(int fsIndex) {
        return BrokerConfigRenderer.WAL_MOUNT_ROOT + "/fs-" + fsIndex;
    }

    public static List<String> mountCommand(NodeSpec.NfsEndpoint ep, String mountPoint) {
        return List.of("mount", "-t", "nfs", "-o", MOUNT_OPTIONS, ep.dnsName() + ":" + ep.junctionPath(), mountPoint);
    }

    @Override
    public PreparedWal prepare(NodeSpec spec, NodeIdentity self) throws IOException {
        int index = BrokerConfigRenderer.fsIndex(spec, self.nodeId());
        NodeSpec.NfsEndpoint ep = spec.walNfsEndpoints().get(index);
        String mountPoint = mountPoint(index);
        Path local = root.resolve(mountPoint.substring(1));
        Files.createDirectories(local);
        if (!mounted(mountPoint)) {
            CommandRunner.Result r = commands.run(mountCommand(ep, mountPoint));
            if (r.exitCode() != 0) {
                throw new IOException("mount of " + ep.dnsName() + ":" + ep.junctionPath() + " on " + mountPoint
                        + " failed (exit " + r.exitCode() + "): " + r.output().trim());
            }
        }
        String file = BrokerConfigRenderer.fsWalFile(spec, self.nodeId());
        Path dir = root.resolve(file.substring(1)).getParent();
        Files.createDirectories(dir);
        return new PreparedWal(file, "file WAL " + file + " on " + ep.dnsName() + ":" + ep.junctionPath());
    }

    private boolean mounted(String mountPoint) throws IOException {
        Path mounts = root.resolve("proc/mounts");
        if (!Files.exists(mounts)) {
            return false;
        }
        for (String line : Files.readAllLines(mounts)) {
            String[] f = line.split("\\s+");
            if (f.length > 2 && f[1].equals(mountPoint) && f[2].startsWith("nfs")) {
                return true;
            }
        }
        return false;
    }
}
