package dev.keel.controlplane.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests an HTTP client library refuses to send: a malformed
 * query string, an encoded slash, an unknown method. The request is written exactly as given.
 */
public final class RawHttp {

    private RawHttp() {
    }

    public record Response(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends {@code method target} with the given headers and body (may be null), reads the answer until the server closes. */
    public static Response send(int port, String method, String target, Map<String, String> headers, byte[] body) {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: localhost:" + port
                    + "\r\nConnection: close\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            if (body != null && !headers.containsKey("Transfer-Encoding")) {
                head.append("Content-Length: ").append(body.length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (body != null) {
                try {
                    out.write(body);
                } catch (IOException closedEarly) {
                    // The server may answer and close before reading a body it refuses; its answer is still there.
                }
            }
            out.flush();
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target, e);
        }
    }

    private static Response parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        int split = text.indexOf("\r\n\r\n");
        String[] lines = text.substring(0, split).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.putIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        String body = text.substring(split + 4);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = unchunk(body);
        }
        return new Response(Integer.parseInt(lines[0].split(" ")[1]), headers, body);
    }

    private static String unchunk(String chunked) {
        StringBuilder body = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                return body.toString();
            }
            body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }
}
