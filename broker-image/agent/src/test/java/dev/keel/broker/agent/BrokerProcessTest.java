package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerProcessTest {
    @TempDir
    Path dir;

    @Test
    void restartsADeadBrokerWithBackoff() throws Exception {
        Path starts = dir.resolve("starts");
        BrokerProcess p = new BrokerProcess(brokerThat(starts, "echo started; exit 3"), Map.of(),
                dir.resolve("broker.log").toFile(), Duration.ofMillis(2500), Duration.ofSeconds(60), Duration.ofSeconds(5));
        p.start();
        await("four starts", Duration.ofSeconds(30), () -> startTimes(starts).size() >= 4);
        p.stop();

        List<Long> gaps = gapsMillis(startTimes(starts));
        assertThat(gaps.get(0)).as("first restart after 1 s: %s", gaps).isGreaterThanOrEqualTo(1000);
        assertThat(gaps.get(1)).as("then doubled: %s", gaps).isGreaterThanOrEqualTo(2000);
        assertThat(gaps.get(2)).as("then capped at the 2.5 s maximum, not doubled to 4 s: %s", gaps)
                .isGreaterThanOrEqualTo(2500).isLessThan(4000);
        assertThat(p.restarts()).isGreaterThanOrEqualTo(3);
        assertThat(Files.readString(dir.resolve("broker.log"))).contains("started");
    }

    @Test
    void aBrokerThatRanStablyIsRestartedAfterTheInitialBackoffAgain() throws Exception {
        Path starts = dir.resolve("starts");
        // Each run lasts longer than stableAfter, so the backoff never grows past 1 s.
        BrokerProcess p = new BrokerProcess(brokerThat(starts, "sleep 0.3; exit 3"), Map.of(),
                dir.resolve("broker.log").toFile(), Duration.ofSeconds(10), Duration.ofMillis(200), Duration.ofSeconds(5));
        p.start();
        await("three starts", Duration.ofSeconds(30), () -> startTimes(starts).size() >= 3);
        p.stop();

        List<Long> gaps = gapsMillis(startTimes(starts));
        assertThat(gaps).as("0.3 s of uptime and 1 s of backoff each, never the doubled 2 s")
                .allSatisfy(gap -> assertThat(gap).isBetween(1300L, 2299L));
    }

    @Test
    void stopTerminatesTheBroker() throws Exception {
        BrokerProcess p = new BrokerProcess(List.of("sleep", "300"), Map.of("KEEL_TEST", "1"),
                dir.resolve("broker.log").toFile(), Duration.ofSeconds(1), Duration.ofSeconds(60), Duration.ofSeconds(5));
        p.start();
        assertThat(p.isAlive()).isTrue();
        long pid = p.pid();
        p.stop();
        assertThat(p.isAlive()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(p.restarts()).as("stop returns once nothing will restart the broker").isZero();
        assertThat(p.pid()).as("no other broker process was started").isEqualTo(pid);
    }

    @Test
    void restartStopsTheBrokerAndStartsItAgainAtOnceWithoutCountingACrash() throws Exception {
        Path starts = dir.resolve("starts");
        BrokerProcess p = new BrokerProcess(brokerThat(starts, "exec sleep 300"), Map.of(),
                dir.resolve("broker.log").toFile(), Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(5));
        p.start();
        await("the first start", Duration.ofSeconds(10), () -> startTimes(starts).size() == 1);
        long first = p.pid();

        p.restart();
        await("a second start", Duration.ofSeconds(10), () -> startTimes(starts).size() == 2);
        assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false)).as("the first broker").isFalse();
        await("the new broker running", Duration.ofSeconds(10), () -> p.isAlive() && p.pid() != first);
        assertThat(p.restarts()).as("a restart asked for is no crash").isZero();
        p.stop();
        assertThat(p.isAlive()).isFalse();
    }

    /** A broker command that appends its start time (epoch nanoseconds) to {@code starts}, then runs {@code script}. */
    private static List<String> brokerThat(Path starts, String script) {
        return List.of("sh", "-c", "date +%s%N >> '" + starts + "'; " + script);
    }

    private static List<Long> startTimes(Path starts) throws IOException {
        if (!Files.exists(starts)) {
            return List.of();
        }
        return Files.readAllLines(starts).stream().filter(line -> !line.isBlank()).map(Long::parseLong).toList();
    }

    private static List<Long> gapsMillis(List<Long> nanos) {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < nanos.size(); i++) {
            gaps.add((nanos.get(i) - nanos.get(i - 1)) / 1_000_000);
        }
        return gaps;
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(String what, Duration timeout, Check check) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!check.holds()) {
            assertThat(System.nanoTime()).as("waited %d s for %s", timeout.toSeconds(), what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
