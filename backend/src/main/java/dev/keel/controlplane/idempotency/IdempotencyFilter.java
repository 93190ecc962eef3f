package dev.keel.controlplane.idempotency;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.RequestPath;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ContentCachingResponseWrapper;
import org.springframework.web.util.ServletRequestPathUtils;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.identity.Callers;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.ProblemWriter;

/**
 * {@code Idempotency-Key} on POST, PUT, PATCH and DELETE, per caller within the organization: the first
 * request with a key is processed and its response stored; a replay with the same body gets that response again (marked
 * {@code Idempotency-Replayed: true}); the same key with a different request is refused with 422.
 * Server errors are not stored, so a retry after one is processed afresh, unless the request had committed its change
 * before the error: the key then answers from it. A request no operation
 * takes (an unknown path, a method or media type the path does not have) is left to the dispatcher's
 * 404, 405 or 415: it has no effect to repeat, and its key is not spent. A request whose process died holds its key
 * only for a while ({@link IdempotencyRecords}): a retry after that is answered from its change, or processed afresh.
 */
class IdempotencyFilter extends OncePerRequestFilter {

    static final String HEADER = "Idempotency-Key";
    private static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH", "DELETE");
    static final Set<String> REPLAYED_HEADERS = Set.of(HttpHeaders.LOCATION, HttpHeaders.CONTENT_LOCATION,
            HttpHeaders.ETAG);

    private final IdempotencyRecords records;
    private final ChangeAnswers answers;
    private final ProblemWriter problems;
    private final ObjectProvider<HandlerMapping> operations;

    IdempotencyFilter(IdempotencyRecords records, ChangeAnswers answers, ProblemWriter problems,
                      ObjectProvider<HandlerMapping> operations) {
        this.records = records;
        this.answers = answers;
        this.problems = problems;
        this.operations = operations;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !METHODS.contains(request.getMethod()) || request.getHeader(HEADER) == null
                || Callers.of(request).isEmpty() || !reachesAnOperation(request);
    }

    private boolean reachesAnOperation(HttpServletRequest request) {
        RequestPath parsed = ServletRequestPathUtils.hasParsedRequestPath(request)
                ? ServletRequestPathUtils.getParsedRequestPath(request) : null;
        try {
            ServletRequestPathUtils.parseAndCache(request);
            return operations.getObject().getHandler(request) != null;
        } catch (Exception refusedByTheDispatcher) {
            return false;
        } finally {
            if (parsed == null) {
                ServletRequestPathUtils.clearParsedRequestPath(request);
            } else {
                request.setAttribute(ServletRequestPathUtils.PATH_ATTRIBUTE, parsed);
            }
        }
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Caller caller = Callers.of(request).orElseThrow();
        IdempotencyRecords.Owner owner = new IdempotencyRecords.Owner(caller.organizationId(), caller.subject());
        String key = request.getHeader(HEADER);
        byte[] body = request.getInputStream().readAllBytes();
        String fingerprint = fingerprint(request, body);
        UUID holder;
        try {
            if (key.isBlank() || key.codePointCount(0, key.length()) > 255) {
                throw ApiException.validation(HEADER, "must be 1 to 255 characters");
            }
            switch (records.claim(owner, key, request.getMethod(), request.getRequestURI(), fingerprint)) {
                case IdempotencyRecords.Claim.Taken(IdempotencyRecords.StoredResponse stored) -> {
                    replay(stored, fingerprint, key, response);
                    return;
                }
                case IdempotencyRecords.Claim.Held(UUID held) -> holder = held;
            }
        } catch (ApiException e) {
            problems.write(request, response, e);
            return;
        }
        ContentCachingResponseWrapper recorded = new ContentCachingResponseWrapper(response);
        boolean completed = false;
        try (ChangeAnswers.UnderKey underKey = answers.underKey(owner, key, holder)) {
            chain.doFilter(new BufferedRequest(request, body), recorded);
            completed = true;
        } finally {
            if (completed && recorded.getStatus() < 500) {
                records.complete(owner, key, holder, new IdempotencyRecords.Response(recorded.getStatus(),
                        headers(recorded), recorded.getContentAsByteArray()));
            } else {
                records.release(owner, key, holder);
            }
            recorded.copyBodyToResponse();
        }
    }

    private void replay(IdempotencyRecords.StoredResponse stored, String fingerprint, String key,
                        HttpServletResponse response) throws IOException {
        if (!stored.fingerprint().equals(fingerprint)) {
            throw ApiException.of(ProblemType.IDEMPOTENCY_KEY_REUSED, HEADER, "Key " + key
                    + " was already used for a different request; use a new key for a new request.");
        }
        if (stored.status() == null) {
            throw ApiException.of(ProblemType.IDEMPOTENCY_REQUEST_IN_PROGRESS,
                    "The first request with key " + key + " is still being processed; retry shortly.");
        }
        response.setStatus(stored.status());
        stored.headers().forEach(response::setHeader);
        response.setHeader("Idempotency-Replayed", "true");
        response.getOutputStream().write(stored.body());
    }

    private static Map<String, String> headers(HttpServletResponse response) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (response.getContentType() != null) {
            headers.put(HttpHeaders.CONTENT_TYPE, response.getContentType());
        }
        for (String name : REPLAYED_HEADERS) {
            String value = response.getHeader(name);
            if (value != null) {
                headers.put(name, value);
            }
        }
        return headers;
    }

    /** What a key is bound to: the method, path, If-Match and body of the request that first sent it. */
    static String fingerprint(HttpServletRequest request, byte[] body) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((request.getMethod() + " " + request.getRequestURI() + "\n").getBytes(StandardCharsets.UTF_8));
            String ifMatch = request.getHeader(HttpHeaders.IF_MATCH);
            digest.update(("If-Match: " + ifMatch + "\n").getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest.digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The request with its body already read, so it can be both fingerprinted and processed. */
    private static final class BufferedRequest extends HttpServletRequestWrapper {

        private final byte[] body;

        BufferedRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("Synchronous request");
                }
            };
        }
    }
}
