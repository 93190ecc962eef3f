package dev.keel.controlplane.shared;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a query string that cannot be decoded (a bad percent escape, bytes that are not UTF-8, a
 * parameter without a name) with a 400 naming the parameter, before anything reads parameters: the
 * container would otherwise fail on first use, deep inside a handler, as if it were our error. A
 * parameter without a value is refused too: no parameter of the API has a meaning for the empty
 * string, and binding would otherwise read {@code ?to=} as if {@code to} had not been sent.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class QueryStrings extends OncePerRequestFilter {

    static final int MAX_PARAMETERS = 100;
    private static final Logger log = LoggerFactory.getLogger(QueryStrings.class);

    private final ProblemWriter problems;

    QueryStrings(ProblemWriter problems) {
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        FieldError error = check(request.getQueryString());
        if (error != null) {
            log.warn("Refused a malformed query string on {} {}: {} {}", request.getMethod(), request.getRequestURI(),
                    error.field(), error.message());
            problems.write(request, response, ProblemType.VALIDATION_FAILED, "The query string cannot be read: "
                    + error.field() + " " + error.message() + ".", List.of(error));
            return;
        }
        chain.doFilter(request, response);
    }

    /** The first parameter that cannot be decoded, or null when the whole query string can. */
    static FieldError check(String query) {
        if (query == null || query.isEmpty()) {
            return null;
        }
        String[] pairs = query.split("&", -1);
        if (pairs.length > MAX_PARAMETERS) {
            return new FieldError("query", "has " + pairs.length + " parameters; at most " + MAX_PARAMETERS + " are read");
        }
        for (String pair : pairs) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String rawName = equals < 0 ? pair : pair.substring(0, equals);
            String name = decode(rawName);
            if (name == null) {
                return new FieldError(rawName, "is not a valid percent-encoded UTF-8 parameter name");
            }
            if (name.isEmpty()) {
                return new FieldError("query", "has a parameter without a name ('" + pair + "')");
            }
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            if (value == null) {
                return new FieldError(name, "is not valid percent-encoded UTF-8");
            }
            if (value.isEmpty()) {
                return new FieldError(name, "has no value; give one or leave the parameter out");
            }
        }
        return null;
    }

    /** Decodes {@code application/x-www-form-urlencoded} text strictly; null when it is malformed. */
    private static String decode(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (i + 2 >= text.length()) {
                    return null;
                }
                int high = Character.digit(text.charAt(i + 1), 16);
                int low = Character.digit(text.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '+') {
                bytes.write(' ');
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
