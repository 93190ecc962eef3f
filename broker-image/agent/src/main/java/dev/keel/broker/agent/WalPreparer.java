package dev.keel.broker.agent;

import java.io.IOException;

/**
 * Gets the node's WAL ready before the broker starts and says where it is: the block device (EBS), the WAL file on
 * the NFS mount (FSWAL), nothing for S3. Implementations: {@link EbsWalPreparer}, {@link FsxNfsWalPreparer},
 * {@link #s3()}, and {@link DryRunWalPreparer} for tests and the local runner.
 */
public interface WalPreparer {

    /** Where the WAL is: the value {@link BrokerConfigRenderer} puts in {@code s3.wal.path} (null for S3). */
    record PreparedWal(String path, String description) {
    }

    PreparedWal prepare(NodeSpec spec, NodeIdentity self) throws IOException;

    static WalPreparer s3() {
        return (spec, self) -> new PreparedWal(null, "S3 WAL in bucket " + spec.dataBucket() + ": nothing to prepare");
    }

    /** The real preparer for the spec's WAL type on an EC2 host. */
    static WalPreparer forEc2(NodeSpec spec) {
        return switch (spec.walType()) {
            case S3 -> s3();
            case EBS -> new EbsWalPreparer(java.nio.file.Path.of("/"));
            case FSWAL -> new FsxNfsWalPreparer(CommandRunner.system(), java.nio.file.Path.of("/"));
        };
    }
}
