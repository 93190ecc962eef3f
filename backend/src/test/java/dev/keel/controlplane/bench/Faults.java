package dev.keel.controlplane.bench;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The faults of a run, in rounds of a random length between two bounds: a round begins with {@code kill -9} of a
 * replica picked at random, which is started again at once; at a random moment of the round another replica is frozen
 * ({@code SIGSTOP}) for a fixed time, longer than the lease of its executions, and then resumed ({@code SIGCONT}).
 * A round ends once its length has passed and the killed replica is ready again.
 */
final class Faults {

    private final Replicas replicas;
    private final Random random;
    private final Duration shortestRound;
    private final Duration longestRound;
    private final Duration frozenFor;
    private final Consumer<String> log;
    private int kills;
    private int freezes;
    private final List<String> endedByThemselves = new ArrayList<>();
    private Duration longestRestart = Duration.ZERO;

    Faults(Replicas replicas, Random random, Duration shortestRound, Duration longestRound, Duration frozenFor,
           Consumer<String> log) {
        this.replicas = replicas;
        this.random = random;
        this.shortestRound = shortestRound;
        this.longestRound = longestRound;
        this.frozenFor = frozenFor;
        this.log = log;
    }

    /** Runs rounds, the first after a round's length, while they begin before {@code until}; then every replica is up. */
    void run(Instant until) throws IOException, InterruptedException {
        Instant roundStart = Instant.now().plus(roundLength());
        while (true) {
            sleepUntil(roundStart);
            startEndedOnes();
            if (!roundStart.isBefore(until)) {
                return;
            }
            Duration length = roundLength();
            int killed = random.nextInt(replicas.count());
            Replicas.Replica victim = replicas.get(killed);
            log.accept("kill -9 " + victim.workerId + " (pid " + victim.process.pid() + "), starting it again");
            kills++;
            CompletableFuture<Duration> restart = CompletableFuture.supplyAsync(() -> restart(victim));

            Duration latestFreeze = length.minus(frozenFor);
            sleepUntil(roundStart.plusMillis(latestFreeze.isNegative() ? 0
                    : (long) (random.nextDouble() * latestFreeze.toMillis())));
            startEndedOnes();
            List<Integer> others = IntStream.range(0, replicas.count()).filter(i -> i != killed).boxed().toList();
            Replicas.Replica frozen = replicas.get(others.get(random.nextInt(others.size())));
            log.accept("kill -STOP " + frozen.workerId + " for " + frozenFor.toSeconds() + " s");
            replicas.freeze(frozen);
            freezes++;
            Thread.sleep(frozenFor);
            replicas.resume(frozen);
            log.accept("kill -CONT " + frozen.workerId);

            Duration restarted = join(restart);
            log.accept(victim.workerId + " ready again after " + restarted.toSeconds() + " s");
            longestRestart = restarted.compareTo(longestRestart) > 0 ? restarted : longestRestart;
            roundStart = roundStart.plus(length);
        }
    }

    /** Replicas whose process ended without being killed here, and how. */
    List<String> endedByThemselves() {
        return List.copyOf(endedByThemselves);
    }

    private void startEndedOnes() {
        for (String ended : replicas.startEndedOnes()) {
            log.accept(ended + " without being killed here; started it again");
            endedByThemselves.add(ended);
        }
    }

    int kills() {
        return kills;
    }

    int freezes() {
        return freezes;
    }

    Duration longestRestart() {
        return longestRestart;
    }

    private Duration restart(Replicas.Replica victim) {
        long began = System.nanoTime();
        try {
            replicas.killAndRestart(victim);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return Duration.ofNanos(System.nanoTime() - began);
    }

    private Duration roundLength() {
        return shortestRound.plusMillis((long) (random.nextDouble() * longestRound.minus(shortestRound).toMillis()));
    }

    private static Duration join(CompletableFuture<Duration> restart) {
        try {
            return restart.join();
        } catch (CompletionException e) {
            throw new IllegalStateException("A killed replica did not start again", e.getCause());
        }
    }

    private static void sleepUntil(Instant when) throws InterruptedException {
        Duration left = Duration.between(Instant.now(), when);
        if (left.isPositive()) {
            Thread.sleep(left);
        }
    }
}
