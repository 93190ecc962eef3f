package dev.keel.perf;

/** {@code perf --bootstrap …}: exit 0 when every message was acknowledged and read back, 1 when not, 2 on bad usage. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        LoadOptions options;
        try {
            options = LoadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println("perf: " + e.getMessage());
            }
            System.err.print(LoadOptions.USAGE);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        System.out.printf("Load on %s: %s msg/s of %d bytes for %d s, %d producer(s), %d consumer(s)%n",
                options.bootstrap(), options.rate(), options.messageSize(), options.duration().toSeconds(),
                options.producers(), options.consumers());
        System.exit(new LoadRun(options, System.out).run() ? 0 : 1);
    }
}
