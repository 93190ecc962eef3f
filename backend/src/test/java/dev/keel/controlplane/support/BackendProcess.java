package dev.keel.controlplane.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import dev.keel.controlplane.settings.ProductionSettings;

/**
 * The packaged backend ({@code target/keel-backend.jar}) as a separate OS process, as it runs in
 * production, with the tests' fixtures on its loader path: for tests about several workers and
 * about a worker dying. It runs with the local-development profile unless the environment names another.
 */
public final class BackendProcess implements AutoCloseable {

    private static final String FIXTURES = "target/test-fixtures";

    private final String workerId;
    private final int port;
    private final int managementPort;
    private final Process process;
    private final Map<String, String> environment;
    private PlayedAgents agents;

    private BackendProcess(String workerId, int port, int managementPort, Process process,
                           Map<String, String> environment) {
        this.workerId = workerId;
        this.port = port;
        this.managementPort = managementPort;
        this.process = process;
        this.environment = Map.copyOf(environment);
    }

    public static BackendProcess start(String workerId, Map<String, String> environment) {
        return start(workerId, environment, Duration.ofSeconds(90));
    }

    /** {@code readyWithin}: how long it may take to start, which a large database or a busy machine lengthens. */
    public static BackendProcess start(String workerId, Map<String, String> environment, Duration readyWithin) {
        return start(workerId, environment, readyWithin, null);
    }

    /**
     * As {@link #start(String, Map, Duration)}, on the CPUs {@code cpus} names ({@code taskset}'s list, e.g. {@code 0}
     * or {@code 0-1}) from its first instruction, so the JVM sizes itself for them; null: on this process's.
     */
    public static BackendProcess start(String workerId, Map<String, String> environment, Duration readyWithin,
                                       String cpus) {
        return start(workerId, environment, FreePorts.any(), FreePorts.any(), readyWithin, cpus);
    }

    /**
     * Serving the API on {@code port} and Actuator on {@code managementPort}: a replica that a load balancer knows by
     * its address, started again where it ran before.
     */
    public static BackendProcess start(String workerId, Map<String, String> environment, int port, int managementPort,
                                       Duration readyWithin, String cpus) {
        Path log = Path.of("target", "it-logs", workerId + ".log");
        try {
            ProcessBuilder builder = packagedJar(log, List.of());
            if (cpus != null) {
                builder.command().addAll(0, List.of("taskset", "-c", cpus));
            }
            builder.environment().put("SPRING_PROFILES_ACTIVE", ProductionSettings.LOCAL_PROFILE);
            builder.environment().putAll(environment);
            builder.environment().put("SERVER_PORT", String.valueOf(port));
            builder.environment().put("KEEL_MANAGEMENT_PORT", String.valueOf(managementPort));
            builder.environment().put("KEEL_WORKER_ID", workerId);
            BackendProcess backend = new BackendProcess(workerId, port, managementPort, builder.start(), environment);
            backend.awaitReady(log.toFile(), readyWithin);
            return backend;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Starts the packaged backend with exactly {@code environment} (none of the test run's), expecting it to refuse to
     * start; returns what it printed. Fails if it is still running after {@code within}.
     */
    public static String refusedStart(String name, Map<String, String> environment, Duration within) {
        try {
            ProcessBuilder builder = packagedJar(Path.of("target", "it-logs", name + ".log"), List.of());
            builder.environment().clear();
            builder.environment().putAll(environment);
            Exit exit = awaitExit(builder, within);
            if (exit.code() == 0) {
                throw new IllegalStateException("The backend exited with 0:\n" + exit.output());
            }
            return exit.output();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How a command of the packaged backend ended: its exit code and all it printed. */
    public record Exit(int code, String output) {
    }

    /**
     * Runs the packaged backend as a command that ends by itself ({@code arguments}, e.g. {@code migrate}), with the
     * local-development profile and the test run's environment plus {@code environment}. Fails if it is still running
     * after {@code within}.
     */
    public static Exit command(String name, List<String> arguments, Map<String, String> environment, Duration within) {
        try {
            ProcessBuilder builder = packagedJar(Path.of("target", "it-logs", name + ".log"), arguments);
            builder.environment().put("SPRING_PROFILES_ACTIVE", ProductionSettings.LOCAL_PROFILE);
            builder.environment().putAll(environment);
            return awaitExit(builder, within);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Exit awaitExit(ProcessBuilder builder, Duration within) throws IOException {
        Path log = builder.redirectOutput().file().toPath();
        Files.deleteIfExists(log);
        Process process = builder.start();
        try {
            if (!process.waitFor(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("The backend still ran after " + within.toSeconds() + " s; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return new Exit(process.exitValue(), Files.readString(log));
    }

    /** The packaged jar as it ships, with the tests' fixtures (the no-cloud driver, fault injection) beside it. */
    private static ProcessBuilder packagedJar(Path log, List<String> arguments) throws IOException {
        Path jar = Path.of("target", "keel-backend.jar");
        if (!Files.exists(jar) || !Files.isDirectory(Path.of(FIXTURES))) {
            throw new IllegalStateException(jar.toAbsolutePath() + " or " + FIXTURES
                    + " is missing: these tests run after `mvn package`.");
        }
        Files.createDirectories(log.getParent());
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx384m", "-Dloader.path=" + FIXTURES,
                "-cp", jar.toString(), "org.springframework.boot.loader.launch.PropertiesLauncher"));
        command.addAll(arguments);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }

    public ApiClient api(String username) {
        return new ApiClient("http://localhost:" + port + "/api/v1", null).as(username);
    }

    public int port() {
        return port;
    }

    /** Where it serves, without a path: the API is under {@code /api/v1}, the ingest API under {@code /ingest/v1}. */
    public String url() {
        return "http://localhost:" + port;
    }

    /** The backend's metrics as a Prometheus server scrapes them (text exposition format). */
    public String scrape() {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + managementPort + "/actuator/prometheus")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The value of the first Prometheus sample named {@code name} whose labels include each of {@code labels} (as
     * exposed, e.g. {@code outcome="unauthorized"}), or NaN when there is none.
     */
    public double metric(String name, String... labels) {
        return sample(scrape(), name, labels);
    }

    /** As {@link #metric(String, String...)}, read from a scrape already made. */
    public static double sample(String scrape, String name, String... labels) {
        return scrape.lines()
                .filter(line -> line.startsWith(name + "{") || line.startsWith(name + " "))
                .filter(line -> java.util.Arrays.stream(labels).allMatch(line::contains)).findFirst()
                .map(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).orElse(Double.NaN);
    }

    /** CPU time the process has used so far (user and system), from {@code /proc}. */
    public Duration cpuTime() {
        return process.toHandle().info().totalCpuDuration().orElseThrow();
    }

    public long pid() {
        return process.pid();
    }

    public String workerId() {
        return workerId;
    }

    /** How the process ended: its exit code (137 after a SIGKILL); empty while it runs. */
    public OptionalInt exitCode() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /** Waits for the process to end by itself (a test fault that kills it); false if it still runs after {@code within}. */
    public boolean awaitExit(Duration within) throws InterruptedException {
        return process.waitFor(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * Plays the broker agents of every instance of its database ({@link PlayedAgents}), reporting to it with its ingest
     * secret, for as long as it runs: for a backend whose machines run in LocalStack, where no broker runs.
     */
    public BackendProcess withPlayedAgents() {
        agents = new PlayedAgents(this, environment.get("KEEL_DB_URL"), environment.get("KEEL_INGEST_SECRET"));
        return this;
    }

    /** {@code kill -STOP}: the process is frozen, its connections open, until {@link #resume()}. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** {@code kill -CONT}: a frozen process carries on where it stopped, unaware of the time that passed. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid() + " exited with " + kill.exitValue());
        }
    }

    /** {@code kill -9}: no shutdown hook, no graceful stop, nothing flushed. */
    public void kill() throws InterruptedException {
        stopAgents();
        process.destroyForcibly();
        process.waitFor();
    }

    private void stopAgents() {
        if (agents != null) {
            agents.close();
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopAgents();
        process.destroy();
        if (!process.waitFor(java.util.concurrent.TimeUnit.SECONDS.toMillis(30), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private void awaitReady(File log, Duration readyWithin) {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + readyWithin.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Backend " + workerId + " exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/readyz")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Pause.of(Duration.ofMillis(250));
        }
        process.destroyForcibly();
        throw new IllegalStateException("Backend " + workerId + " was not ready within " + readyWithin.toSeconds() + " s; see " + log);
    }
}
