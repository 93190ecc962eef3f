package dev.keel.provisioner;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/** {@link NetworkLocks#inThisProcess()}: a lock per VPC, held by one thread of this process at a time. */
final class ProcessNetworkLocks implements NetworkLocks {

    private final Map<String, ReentrantLock> vpcs = new ConcurrentHashMap<>();

    @Override
    public <T> Optional<T> whenFree(ProvisioningTarget target, Function<ProvisioningTarget, T> step) {
        ReentrantLock lock = vpcs.computeIfAbsent(NetworkLocks.vpcOf(target), vpc -> new ReentrantLock());
        if (!lock.tryLock()) {
            return Optional.empty();
        }
        try {
            return Optional.of(step.apply(target));
        } finally {
            lock.unlock();
        }
    }
}
