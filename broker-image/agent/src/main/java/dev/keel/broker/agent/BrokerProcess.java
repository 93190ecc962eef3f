package dev.keel.broker.agent;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the broker as a child process and keeps it running: when it dies it is started again after a backoff
 * (1 s doubling to {@code maxBackoff}, reset after {@code stableAfter} of uptime); {@link #stop()} (called on
 * SIGTERM through the agent's shutdown hook) sends SIGTERM to the broker and waits for a clean shutdown, then kills
 * it and any children left.
 */
public final class BrokerProcess {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerProcess.class);

    private final List<String> command;
    private final Map<String, String> environment;
    private final File logFile;
    private final Duration maxBackoff;
    private final Duration stableAfter;
    private final Duration stopTimeout;
    private final AtomicInteger restarts = new AtomicInteger();
    private volatile Process process;
    private volatile Instant startedAt;
    private volatile boolean stopping;
    private volatile boolean restartRequested;
    private Thread supervisor;

    public BrokerProcess(List<String> command, Map<String, String> environment, File logFile, Duration maxBackoff,
                         Duration stableAfter, Duration stopTimeout) {
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.logFile = logFile;
        this.maxBackoff = maxBackoff;
        this.stableAfter = stableAfter;
        this.stopTimeout = stopTimeout;
    }

    public static BrokerProcess of(List<String> command, Map<String, String> environment, File logFile) {
        return new BrokerProcess(command, environment, logFile, Duration.ofSeconds(30), Duration.ofSeconds(60),
                Duration.ofSeconds(60));
    }

    public synchronized void start() throws IOException {
        if (supervisor != null) {
            return;
        }
        launch();
        supervisor = new Thread(this::supervise, "broker-supervisor");
        supervisor.setDaemon(true);
        supervisor.start();
    }

    private void launch() throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile));
        pb.environment().putAll(environment);
        process = pb.start();
        startedAt = Instant.now();
        LOG.info("broker started (pid {}): {}; output in {}", process.pid(), command.get(0), logFile);
    }

    private void supervise() {
        long backoffMs = 1000;
        while (!stopping) {
            Process p = process;
            int code;
            try {
                code = p.waitFor();
            } catch (InterruptedException e) {
                return;
            }
            if (stopping) {
                return;
            }
            if (restartRequested) {
                synchronized (this) {
                    restartRequested = false;
                    if (stopping) {
                        return;
                    }
                    try {
                        launch();
                    } catch (IOException e) {
                        LOG.error("broker restart failed: {}", e.getMessage());
                    }
                }
                continue;
            }
            Duration up = Duration.between(startedAt, Instant.now());
            if (up.compareTo(stableAfter) >= 0) {
                backoffMs = 1000;
            }
            LOG.warn("broker exited with code {} after {} s; restarting in {} ms", code, up.toSeconds(), backoffMs);
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                return;
            }
            backoffMs = Math.min(backoffMs * 2, maxBackoff.toMillis());
            synchronized (this) {
                if (stopping) {
                    return;
                }
                try {
                    launch();
                    restarts.incrementAndGet();
                } catch (IOException e) {
                    LOG.error("broker restart failed: {}", e.getMessage());
                }
            }
        }
    }

    /**
     * SIGTERM, wait for the broker's controlled shutdown, then SIGKILL what is left. Returns once the supervisor has
     * ended, so nothing starts the broker again afterwards.
     */
    public void stop() {
        Process p;
        synchronized (this) {
            stopping = true;
            p = process;
        }
        if (supervisor != null) {
            supervisor.interrupt();
        }
        if (p != null && p.isAlive()) {
            terminate(p);
        }
        if (supervisor != null) {
            try {
                supervisor.join(stopTimeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Restarts the broker on purpose: a controlled shutdown (as {@link #stop()}), then the same command at once. Not
     * counted among {@link #restarts()}, which are the broker's own exits.
     */
    public void restart() {
        Process p;
        synchronized (this) {
            if (stopping || process == null) {
                return;
            }
            restartRequested = true;
            p = process;
        }
        LOG.info("restarting the broker");
        terminate(p);
    }

    private void terminate(Process p) {
        LOG.info("stopping broker (pid {})", p.pid());
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("broker did not stop in {} s; killing it", stopTimeout.toSeconds());
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        LOG.info("broker stopped");
    }

    public boolean isAlive() {
        Process p = process;
        return p != null && p.isAlive();
    }

    public int restarts() {
        return restarts.get();
    }

    public Instant startedAt() {
        return startedAt;
    }

    public long pid() {
        Process p = process;
        return p == null ? -1 : p.pid();
    }
}
