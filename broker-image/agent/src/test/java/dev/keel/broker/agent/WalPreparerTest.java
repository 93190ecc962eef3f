package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WalPreparerTest {
    @TempDir
    Path root;

    private void blockDevice(String name, long bytes) throws IOException {
        Files.createDirectories(root.resolve("dev"));
        Files.createFile(root.resolve("dev").resolve(name));
        Path sys = Files.createDirectories(root.resolve("sys/class/block").resolve(name));
        Files.writeString(sys.resolve("size"), Long.toString(bytes / 512));
    }

    @Test
    void ebsFollowsTheUdevSymlinkToTheNvmeName() throws IOException {
        blockDevice("nvme1n1", 8L << 30);
        Files.createSymbolicLink(root.resolve("dev/sdf"), root.resolve("dev/nvme1n1"));
        NodeSpec spec = Specs.ebs1Zone();
        var wal = new EbsWalPreparer(root).prepare(spec, identity(spec));
        assertThat(wal.path()).isEqualTo("/dev/nvme1n1");
    }

    @Test
    void ebsFindsTheVolumeBySerialWithoutUdevRules() throws IOException {
        blockDevice("nvme2n1", 8L << 30);
        Files.createDirectories(root.resolve("dev/disk/by-id"));
        Files.createSymbolicLink(root.resolve("dev/disk/by-id/nvme-Amazon_Elastic_Block_Store_vol0abc123"),
                root.resolve("dev/nvme2n1"));
        NodeSpec spec = Specs.ebs1Zone();
        assertThat(new EbsWalPreparer(root, "vol-0abc123").prepare(spec, identity(spec)).path())
                .isEqualTo("/dev/nvme2n1");
    }

    @Test
    void ebsRefusesMissingMountedOrSmallDevices() throws IOException {
        NodeSpec spec = Specs.ebs1Zone();
        assertThatThrownBy(() -> new EbsWalPreparer(root).prepare(spec, identity(spec)))
                .hasMessageContaining("EBS WAL device not found").hasMessageContaining("/dev/xvdf");
        blockDevice("xvdf", 1L << 30);
        assertThatThrownBy(() -> new EbsWalPreparer(root).prepare(spec, identity(spec)))
                .hasMessageContaining("less than the WAL capacity");
        Files.writeString(root.resolve("sys/class/block/xvdf/size"), Long.toString((8L << 30) / 512));
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/mounts"), "/dev/xvdf /data ext4 rw 0 0\n");
        assertThatThrownBy(() -> new EbsWalPreparer(root).prepare(spec, identity(spec)))
                .hasMessageContaining("is mounted");
        Files.writeString(root.resolve("proc/mounts"), "");
        assertThat(new EbsWalPreparer(root).prepare(spec, identity(spec)).path()).isEqualTo("/dev/xvdf");
    }

    @Test
    void fswalMountsNfs41OnTheNodesFileSystemAndCreatesItsDirectory() throws IOException {
        List<List<String>> ran = new ArrayList<>();
        CommandRunner fake = cmd -> {
            ran.add(cmd);
            return new CommandRunner.Result(0, "");
        };
        NodeSpec spec = Specs.fswal3Zones2Fs();
        var peers = Specs.peers(spec, BrokerConfigRendererTest.THREE_ZONES);
        var wal = new FsxNfsWalPreparer(fake, root).prepare(spec, Specs.identity(peers, 3));
        assertThat(wal.path()).isEqualTo("/mnt/keel-wal/fs-1/node-3/wal");
        assertThat(ran).containsExactly(List.of("mount", "-t", "nfs", "-o",
                "nfsvers=4.1,nconnect=16,hard,timeo=600,retrans=2,noresvport,rsize=1048576,wsize=1048576",
                "svm-0c2d.fs-0c2d.fsx.us-east-1.amazonaws.com:/keel_wal_1", "/mnt/keel-wal/fs-1"));
        assertThat(root.resolve("mnt/keel-wal/fs-1/node-3")).isDirectory();

        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/mounts"),
                "svm-0c2d.fs-0c2d.fsx.us-east-1.amazonaws.com:/keel_wal_1 /mnt/keel-wal/fs-1 nfs4 rw 0 0\n");
        ran.clear();
        new FsxNfsWalPreparer(fake, root).prepare(spec, Specs.identity(peers, 3));
        assertThat(ran).as("already mounted: no second mount").isEmpty();
    }

    @Test
    void fswalReportsAFailedMount() {
        NodeSpec spec = Specs.fswal3Zones2Fs();
        var peers = Specs.peers(spec, BrokerConfigRendererTest.THREE_ZONES);
        CommandRunner failing = cmd -> new CommandRunner.Result(32, "mount.nfs: access denied by server");
        assertThatThrownBy(() -> new FsxNfsWalPreparer(failing, root).prepare(spec, Specs.identity(peers, 0)))
                .hasMessageContaining("failed (exit 32)").hasMessageContaining("access denied");
    }

    @Test
    void dryRunSaysWhatItWouldDo() throws IOException {
        DryRunWalPreparer dry = new DryRunWalPreparer();
        NodeSpec spec = Specs.fswal3Zones2Fs();
        var peers = Specs.peers(spec, BrokerConfigRendererTest.THREE_ZONES);
        assertThat(dry.prepare(spec, Specs.identity(peers, 2)).path()).isEqualTo("/mnt/keel-wal/fs-0/node-2/wal");
        assertThat(dry.actions().get(0)).startsWith("would run: mount -t nfs -o nfsvers=4.1");
        assertThat(WalPreparer.s3().prepare(Specs.s3ThreeZones(), identity(Specs.s3ThreeZones())).path()).isNull();
    }

    private static NodeIdentity identity(NodeSpec spec) {
        return new NodeIdentity(0, "us-east-1a", "10.0.1.10", "i-0");
    }
}
