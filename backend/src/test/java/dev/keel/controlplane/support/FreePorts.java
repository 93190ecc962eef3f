package dev.keel.controlplane.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a process the test starts, taken above the kernel's ephemeral range: a port the kernel handed out
 * for {@code bind(0)} and that was closed again can be the local port of the next outgoing connection before the
 * started process binds it, and then the process fails with "port already in use".
 */
public final class FreePorts {

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int HIGHEST_PORT = 65535;

    private FreePorts() {
    }

    public static int any() {
        int lowest = ephemeralRangeEnd() + 1;
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(lowest, HIGHEST_PORT + 1);
            if (bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port between " + lowest + " and " + HIGHEST_PORT);
    }

    private static int ephemeralRangeEnd() {
        try {
            // One line, "first last"; Files.readString stops short on procfs, whose files report a size of 0.
            String[] range = Files.readAllLines(EPHEMERAL_RANGE).getFirst().trim().split("\\s+");
            return Integer.parseInt(range[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
