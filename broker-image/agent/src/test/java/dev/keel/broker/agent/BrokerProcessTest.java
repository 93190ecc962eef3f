package dev.keel.broker.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerProcessTest {
    @TempDir
    Path dir;

    @Test
    void restartsADeadBrokerWithBackoff() throws Exception {
        BrokerProcess p = new BrokerProcess(List.of("sh", "-c", "echo started; exit 3"), Map.of(),
                dir.resolve("broker.log").toFile(), Duration.ofMillis(2000), Duration.ofSeconds(60), Duration.ofSeconds(5));
        p.start();
        long deadline = System.currentTimeMillis() + 8000;
        while (p.restarts() < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        p.stop();
        assertThat(p.restarts()).isGreaterThanOrEqualTo(2);
        assertThat(java.nio.file.Files.readString(dir.resolve("broker.log"))).contains("started");
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
        Thread.sleep(1500);
        assertThat(p.restarts()).as("a stopped broker is not restarted").isZero();
    }
}
