package dev.keel.broker.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a host command (mount, mkdir …); a recording fake stands in for it in tests. */
public interface CommandRunner {
    record Result(int exitCode, String output) {
    }

    Result run(List<String> command) throws IOException;

    static CommandRunner system() {
        return command -> {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            try {
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException("timed out: " + String.join(" ", command));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        };
    }
}
