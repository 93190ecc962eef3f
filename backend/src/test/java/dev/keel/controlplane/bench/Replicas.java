package dev.keel.controlplane.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

import dev.keel.controlplane.support.BackendProcess;

/**
 * Identical backend processes behind the load balancer, each on the ports the load balancer knows it by, and what is
 * done to them: {@code kill -9} and a start again on the same ports under the same worker id, as a Deployment's pod
 * restarts its killed container under the pod's name; {@code SIGSTOP} and, later, {@code SIGCONT}.
 */
final class Replicas implements AutoCloseable {

    private static final Duration READY_WITHIN = Duration.ofMinutes(4);

    private final Map<String, String> environment;
    private final List<Replica> replicas = new ArrayList<>();

    /** One replica: its worker id, its ports, and the process serving there now. */
    static final class Replica {
        final String workerId;
        final int port;
        final int managementPort;
        volatile BackendProcess process;
        volatile boolean restarting;

        Replica(String workerId, int port, int managementPort) {
            this.workerId = workerId;
            this.port = port;
            this.managementPort = managementPort;
        }
    }

    /** Starts a replica on each pair of {@code ports} (API, management), all at once, and returns once all are ready. */
    Replicas(Map<String, String> environment, List<int[]> ports) {
        this.environment = environment;
        for (int i = 0; i < ports.size(); i++) {
            replicas.add(new Replica("replica-" + (i + 1), ports.get(i)[0], ports.get(i)[1]));
        }
        CompletableFuture.allOf(replicas.stream().map(r -> CompletableFuture.runAsync(() -> start(r)))
                .toArray(CompletableFuture[]::new)).join();
    }

    int count() {
        return replicas.size();
    }

    Replica get(int index) {
        return replicas.get(index);
    }

    /** {@code kill -9} of the replica, then a start on its ports under its worker id; returns once it is ready. */
    void killAndRestart(Replica replica) throws InterruptedException {
        replica.restarting = true;
        try {
            replica.process.kill();
            start(replica);
        } finally {
            replica.restarting = false;
        }
    }

    /**
     * Starts again each replica whose process ended without being killed here (the machine's OOM killer, say), and
     * returns how each had ended.
     */
    List<String> startEndedOnes() {
        List<String> ended = new ArrayList<>();
        for (Replica replica : replicas) {
            OptionalInt exit = replica.restarting ? OptionalInt.empty() : replica.process.exitCode();
            if (exit.isPresent()) {
                ended.add(replica.workerId + " (pid " + replica.process.pid() + ") exited with " + exit.getAsInt());
                start(replica);
            }
        }
        return ended;
    }

    void freeze(Replica replica) throws IOException, InterruptedException {
        replica.process.freeze();
    }

    void resume(Replica replica) throws IOException, InterruptedException {
        replica.process.resume();
    }

    private void start(Replica replica) {
        replica.process = BackendProcess.start(replica.workerId, environment, replica.port, replica.managementPort,
                READY_WITHIN, null);
    }

    @Override
    public void close() throws InterruptedException {
        for (Replica replica : replicas) {
            if (replica.process != null) {
                replica.process.close();
            }
        }
    }
}
