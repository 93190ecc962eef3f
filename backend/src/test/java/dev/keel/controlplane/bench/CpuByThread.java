package dev.keel.controlplane.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time each thread of a process has used, from {@code /proc/<pid>/task} (Linux, in ticks of 10 ms), so that a
 * run can say where a process's CPU went: the threads that answer requests, the JIT compilers, the garbage collector
 * and the rest, its background work.
 */
final class CpuByThread {

    /** Linux's USER_HZ: {@code /proc} counts CPU time in hundredths of a second. */
    private static final double TICKS_PER_SECOND = 100;

    /** Ticks used so far by thread id, with the thread's name. */
    private final Map<String, Used> threads;

    private record Used(String name, long ticks) {
    }

    private CpuByThread(Map<String, Used> threads) {
        this.threads = threads;
    }

    static CpuByThread of(long pid) {
        Map<String, Used> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    // The name is between the first '(' and the last ')'; it may hold spaces and parentheses itself.
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
                    threads.put(task.getFileName().toString(),
                            new Used(name, Long.parseLong(fields[11]) + Long.parseLong(fields[12])));
                } catch (NoSuchFileException ended) {
                    // The thread ended while the process was read.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CpuByThread(threads);
    }

    /**
     * Seconds of CPU used since {@code before} by kind of thread: requests (the threads of the connector on
     * {@code port}: Tomcat's workers, poller and acceptor), JIT (the compilers), GC (the garbage collector's) and
     * background (every other thread). A thread that ended in between is not counted, so they may add up to less than
     * the process's own figure.
     */
    Map<String, Double> since(CpuByThread before, int port) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        seconds.put("requests", 0.0);
        seconds.put("JIT", 0.0);
        seconds.put("GC", 0.0);
        seconds.put("background", 0.0);
        threads.forEach((id, used) -> {
            Used earlier = before.threads.get(id);
            long ticks = used.ticks() - (earlier == null ? 0 : earlier.ticks());
            seconds.merge(kind(used.name(), port), ticks / TICKS_PER_SECOND, Double::sum);
        });
        return seconds;
    }

    /** Linux keeps the first 15 characters of a Java thread's name: {@code http-nio-<port>-} of Tomcat's. */
    private static String kind(String name, int port) {
        if (name.startsWith("http-nio-" + port)) {
            return "requests";
        }
        if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
            return "JIT";
        }
        return name.startsWith("GC Thread") || name.startsWith("G1 ") ? "GC" : "background";
    }
}
