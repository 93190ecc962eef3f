package dev.keel.broker.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * Prepares nothing: says what the real preparer would do and returns the path the config would name. Used by
 * tests and by the local runner (a stand-in broker has no EBS volume or NFS mount).
 */
public final class DryRunWalPreparer implements WalPreparer {
    private final List<String> actions = new ArrayList<>();

    @Override
    public PreparedWal prepare(NodeSpec spec, NodeIdentity self) {
        return switch (spec.walType()) {
            case S3 -> {
                actions.add("nothing (S3 WAL)");
                yield new PreparedWal(null, "dry run: S3 WAL in " + spec.dataBucket());
            }
            case EBS -> {
                actions.add("would find " + spec.walDevice() + " (or its NVMe name) and check it is an unmounted block"
                        + " device of at least " + spec.walCapacityBytes() + " bytes");
                yield new PreparedWal(spec.walDevice(), "dry run: EBS device " + spec.walDevice());
            }
            case FSWAL -> {
                NodeSpec.NfsEndpoint ep = spec.walNfsEndpoints().get(BrokerConfigRenderer.fsIndex(spec, self.nodeId()));
                List<String> mount = FsxNfsWalPreparer.mountCommand(ep, FsxNfsWalPreparer.mountPoint(ep.index()));
                actions.add("would run: " + String.join(" ", mount));
                String file = BrokerConfigRenderer.fsWalFile(spec, self.nodeId());
                actions.add("would create " + file.substring(0, file.lastIndexOf('/')));
                yield new PreparedWal(file, "dry run: file WAL " + file);
            }
        };
    }

    public List<String> actions() {
        return List.copyOf(actions);
    }
}
