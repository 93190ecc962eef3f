package dev.keel.awsemulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keel's AWS API emulator: FSx for NetApp ONTAP and AWS Marketplace (Metering, Entitlement) over
 * the real AWS JSON 1.1 wire protocol ({@code POST /} with {@code X-Amz-Target}), so the real AWS SDK
 * clients reach it through {@code endpointOverride}. For local runs and tests only: it is not AWS.
 * Signatures are not checked; any credentials and region are accepted. State is in memory.
 *
 * <p>Besides the AWS APIs it serves a small admin API under {@code /_emulator/} (see README.md).
 */
public final class AwsApiEmulator implements AutoCloseable {

    static final String BANNER =
            "Keel AWS API emulator (FSx for ONTAP, AWS Marketplace) — an emulator for local runs and tests, not AWS";

    private static final Logger LOG = Logger.getLogger(AwsApiEmulator.class.getName());
    private static final String JSON_1_1 = "application/x-amz-json-1.1";
    private static final Pattern CREDENTIAL =
            Pattern.compile("Credential=([^/,\\s]+)/\\d{8}/([^/,\\s]+)/");
    private static final Pattern TWELVE_DIGITS = Pattern.compile("\\d{12}");
    /** The account id when the access key is not 12 digits; the same default as LocalStack's. */
    static final String DEFAULT_ACCOUNT = "000000000000";

    /** Start-up options; {@code fsx} paces the FSx lifecycles. */
    public record Options(String host, int port, FsxLifecycles fsx) {
        public static Options defaults() {
            return new Options("127.0.0.1", 4577, FsxLifecycles.quick(Duration.ofSeconds(5), Duration.ofSeconds(3)));
        }

        public Options withPort(int newPort) {
            return new Options(host, newPort, fsx);
        }

        /** Quick lifecycles: a file system is created in {@code create}, everything else takes {@code update}. */
        public Options withDelays(Duration create, Duration update) {
            return new Options(host, port, FsxLifecycles.quick(create, update));
        }

        public Duration fsxCreateDelay() {
            return fsx.fileSystemCreate();
        }

        public Duration fsxUpdateDelay() {
            return fsx.fileSystemUpdate();
        }
    }

    /** Who is calling, as far as the emulator cares: the access key, region and account of the request's signature. */
    record Caller(String accessKey, String region, String accountId) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final Fsx fsx;
    private final Marketplace marketplace;
    private final Throttles throttles = new Throttles();

    private AwsApiEmulator(HttpServer server, ExecutorService executor, Fsx fsx, Marketplace marketplace) {
        this.server = server;
        this.executor = executor;
        this.fsx = fsx;
        this.marketplace = marketplace;
    }

    /** Binds and starts the emulator; port 0 picks a free port (see {@link #port()}). */
    public static AwsApiEmulator start(Options options) throws IOException {
        return start(options, Clock.systemUTC());
    }

    static AwsApiEmulator start(Options options, Clock clock) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 128);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        AwsApiEmulator emulator = new AwsApiEmulator(server, executor,
                new Fsx(clock, options.fsx()), new Marketplace(clock, AgreementEventSender.fromEnvironment(clock)));
        server.createContext("/", emulator::handle);
        server.setExecutor(executor);
        server.start();
        LOG.info(() -> BANNER + "; listening on http://" + options.host() + ":" + emulator.port()
                + " (FSx lifecycles " + options.fsx() + ")");
        return emulator;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI endpoint() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + port());
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ------------------------------------------------------------------ HTTP

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            if (path.startsWith("/_emulator/")) {
                handleAdmin(exchange, path, body);
            } else if ("POST".equals(exchange.getRequestMethod()) && "/".equals(path)) {
                handleAws(exchange, body);
            } else if (path.startsWith("/service/")) {
                // Smithy RPC v2 CBOR, which newer SDKs may prefer for some services: not spoken here.
                LOG.warning(() -> "refused a Smithy RPC v2 CBOR request to " + path
                        + "; this emulator speaks AWS JSON 1.1 only (AWS SDK for Java 2.40.x uses it)");
                sendJson(exchange, 400, adminError("Keel's AWS API emulator speaks the AWS JSON 1.1 protocol only,"
                        + " not Smithy RPC v2 CBOR"));
            } else if ("GET".equals(exchange.getRequestMethod()) && "/".equals(path)) {
                send(exchange, 200, "text/plain; charset=utf-8", (BANNER + "\n").getBytes(StandardCharsets.UTF_8));
            } else {
                sendJson(exchange, 404, adminError("no such endpoint: " + exchange.getRequestMethod() + " " + path));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "request failed", e);
        }
    }

    private void handleAws(HttpExchange exchange, byte[] body) throws IOException {
        String requestId = UUID.randomUUID().toString();
        exchange.getResponseHeaders().set("x-amzn-RequestId", requestId);
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        try {
            if (target == null || target.indexOf('.') < 0) {
                throw new AwsError("UnknownOperationException",
                        "Missing or malformed X-Amz-Target header; this emulator speaks the AWS JSON 1.1 protocol");
            }
            String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
            if (contentType != null && !contentType.startsWith("application/x-amz-json-1.")) {
                throw AwsError.serialization("Content-Type " + contentType
                        + " is not supported; AWS JSON requests use " + JSON_1_1);
            }
            String prefix = target.substring(0, target.indexOf('.'));
            String operation = target.substring(target.indexOf('.') + 1);
            JsonNode request = Json.parse(body);
            Caller caller = caller(exchange);
            throttles.check(caller.accessKey(), operation);
            JsonNode response = switch (prefix) {
                case Fsx.TARGET_PREFIX -> fsx.call(operation, request, caller);
                case Marketplace.METERING_PREFIX -> marketplace.metering(operation, request, caller);
                case Marketplace.ENTITLEMENT_PREFIX -> marketplace.entitlement(operation, request);
                default -> throw new AwsError("UnknownOperationException",
                        "Keel's AWS API emulator does not emulate the service of " + target);
            };
            send(exchange, 200, JSON_1_1, Json.bytes(response));
        } catch (AwsError e) {
            ObjectNode error = Json.object();
            error.put("__type", e.code());
            error.put("message", e.getMessage());
            e.members().forEach(error::put);
            exchange.getResponseHeaders().set("x-amzn-ErrorType", e.code());
            LOG.fine(() -> target + " -> " + e.code() + ": " + e.getMessage());
            send(exchange, e.status(), JSON_1_1, Json.bytes(error));
        }
    }

    /** Region and account from the SigV4 credential scope; the signature itself is not checked. */
    private static Caller caller(HttpExchange exchange) {
        String authorization = exchange.getRequestHeaders().getFirst("Authorization");
        if (authorization != null) {
            Matcher matcher = CREDENTIAL.matcher(authorization);
            if (matcher.find()) {
                String accessKey = matcher.group(1);
                String account = TWELVE_DIGITS.matcher(accessKey).matches() ? accessKey : DEFAULT_ACCOUNT;
                return new Caller(accessKey, matcher.group(2), account);
            }
        }
        return new Caller("", "us-east-1", DEFAULT_ACCOUNT);
    }

    // ------------------------------------------------------------------ admin API

    private void handleAdmin(HttpExchange exchange, String path, byte[] body) throws IOException {
        String method = exchange.getRequestMethod();
        Map<String, String> query = query(exchange.getRequestURI());
        try {
            JsonNode response;
            int status = 200;
            switch (method + " " + path) {
                case "GET /_emulator/health" -> {
                    ObjectNode health = Json.object();
                    health.put("status", "UP");
                    health.put("emulator", BANNER);
                    health.putArray("services").add("fsx").add("marketplace-metering").add("marketplace-entitlement");
                    response = health;
                }
                case "POST /_emulator/reset" -> {
                    fsx.reset();
                    marketplace.reset();
                    throttles.reset();
                    response = Json.object().put("reset", true);
                }
                case "POST /_emulator/marketplace/customers" -> {
                    response = marketplace.seedCustomer(parseAdmin(body));
                    status = 201;
                }
                case "POST /_emulator/marketplace/registrations" -> {
                    response = marketplace.mintRegistration(parseAdmin(body));
                    status = 201;
                }
                case "GET /_emulator/marketplace/customers" -> response = marketplace.customers();
                case "POST /_emulator/marketplace/customers/cancel" -> response = marketplace.cancelCustomer(parseAdmin(body));
                case "GET /_emulator/marketplace/meter-records" ->
                        response = marketplace.meterRecords(query.get("productCode"), query.get("customerIdentifier"));
                case "GET /_emulator/fsx/file-systems" -> response = fsx.dump();
                case "POST /_emulator/throttles" -> {
                    response = throttles.arm(parseAdmin(body));
                    status = 201;
                }
                default -> {
                    sendJson(exchange, 404, adminError("no such admin endpoint: " + method + " " + path));
                    return;
                }
            }
            sendJson(exchange, status, response);
        } catch (IllegalArgumentException e) {
            sendJson(exchange, 400, adminError(e.getMessage()));
        }
    }

    private static JsonNode parseAdmin(byte[] body) {
        try {
            return Json.parse(body);
        } catch (AwsError e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static ObjectNode adminError(String message) {
        return Json.object().put("error", message);
    }

    private static Map<String, String> query(URI uri) {
        Map<String, String> params = new LinkedHashMap<>();
        String raw = uri.getRawQuery();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.put(key, value);
            }
        }
        return params;
    }

    private static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
        send(exchange, status, "application/json", Json.bytes(body));
    }

    private static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    // ------------------------------------------------------------------ main

    public static void main(String[] args) throws IOException, InterruptedException {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %3$s - %5$s%6$s%n");
        Options options;
        try {
            options = parseArgs(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.println("usage: java -jar keel-aws-emulator.jar [--host 127.0.0.1] [--port 4577]"
                    + " [--fsx-create-seconds 5] [--fsx-update-seconds 3] [--fsx-lifecycle quick|realistic]"
                    + " [--time-scale 1]");
            System.exit(2);
            return;
        }
        AwsApiEmulator emulator = start(options);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping");
            emulator.close();
        }, "shutdown"));
        Thread.currentThread().join();
    }

    static Options parseArgs(String[] args) {
        Options defaults = Options.defaults();
        String host = defaults.host();
        int port = defaults.port();
        Duration create = defaults.fsxCreateDelay();
        Duration update = defaults.fsxUpdateDelay();
        boolean realistic = false;
        double timeScale = 1;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            switch (name) {
                case "--host" -> host = value;
                case "--port" -> port = parseInt(name, value);
                case "--fsx-create-seconds" -> create = seconds(name, value);
                case "--fsx-update-seconds" -> update = seconds(name, value);
                case "--fsx-lifecycle" -> realistic = switch (value) {
                    case "quick" -> false;
                    case "realistic" -> true;
                    default -> throw new IllegalArgumentException(name + " must be quick or realistic, got " + value);
                };
                case "--time-scale" -> timeScale = seconds(name, value).toMillis() / 1000.0;
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        FsxLifecycles lifecycles = realistic ? FsxLifecycles.realistic() : FsxLifecycles.quick(create, update);
        return new Options(host, port, timeScale == 1 ? lifecycles : lifecycles.scaled(timeScale));
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, got " + value);
        }
    }

    private static Duration seconds(String name, String value) {
        try {
            double seconds = Double.parseDouble(value);
            if (seconds < 0) {
                throw new IllegalArgumentException(name + " must not be negative");
            }
            return Duration.ofMillis(Math.round(seconds * 1000));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number of seconds, got " + value);
        }
    }
}
