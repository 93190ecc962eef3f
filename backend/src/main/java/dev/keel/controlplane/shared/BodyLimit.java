package dev.keel.controlplane.shared;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request body over {@code keel.api.max-request-body} with 413 before anything parses it:
 * at once when {@code Content-Length} says so, else as soon as a streamed body passes the limit.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2)
class BodyLimit extends OncePerRequestFilter {

    private final long limit;
    private final ProblemWriter problems;

    BodyLimit(@Value("${keel.api.max-request-body}") DataSize limit, ProblemWriter problems) {
        this.limit = limit.toBytes();
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > limit) {
            problems.write(request, response, tooLarge());
            return;
        }
        try {
            chain.doFilter(new Limited(request), response);
        } catch (ApiException e) {
            if (e.type() != ProblemType.PAYLOAD_TOO_LARGE || response.isCommitted()) {
                throw e;
            }
            response.reset();
            problems.write(request, response, e);
        }
    }

    private ApiException tooLarge() {
        return ApiException.of(ProblemType.PAYLOAD_TOO_LARGE, "The request body is larger than " + limit
                + " bytes, the most this API reads.");
    }

    /** The request with a body that stops at the limit. */
    private final class Limited extends HttpServletRequestWrapper {

        private ServletInputStream limited;

        Limited(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (limited == null) {
                limited = new Counting(super.getInputStream());
            }
            return limited;
        }
    }

    private final class Counting extends ServletInputStream {

        private final ServletInputStream in;
        private long read;

        Counting(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw tooLarge();
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
