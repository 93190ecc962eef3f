package dev.keel.controlplane.metrics;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Counts what the ingest API answers broker agents, by outcome ({@code keel.ingest.reports}: accepted,
 * unauthorized, invalid, deferred, error): a share of refused reports across the fleet is the first sign that Keel's
 * side of the ingest path broke (a rotated secret, a certificate, a load balancer), before agents fall silent.
 * {@code invalid} includes a node id the instance does not have; {@code deferred} is a 503 the control plane answers
 * on purpose, to an agent that is to ask again shortly (a certificate for a machine a running operation has not
 * recorded yet), apart from {@code error}, which says Keel's side failed.
 */
@Configuration
class IngestOutcomes {

    @Bean
    FilterRegistrationBean<OncePerRequestFilter> ingestOutcomesFilter(MeterRegistry meters) {
        Counter accepted = counter(meters, "accepted");
        Counter unauthorized = counter(meters, "unauthorized");
        Counter invalid = counter(meters, "invalid");
        Counter deferred = counter(meters, "deferred");
        Counter error = counter(meters, "error");
        FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                new OncePerRequestFilter() {
                    @Override
                    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                                                    FilterChain chain) throws ServletException, IOException {
                        try {
                            chain.doFilter(request, response);
                        } finally {
                            int status = response.getStatus();
                            (status < 400 ? accepted : status == 401 || status == 403 ? unauthorized
                                    : status < 500 ? invalid : status == 503 ? deferred : error).increment();
                        }
                    }
                });
        registration.addUrlPatterns("/ingest/*");
        return registration;
    }

    private static Counter counter(MeterRegistry meters, String outcome) {
        return Counter.builder("keel.ingest.reports").tag("outcome", outcome)
                .description("What the ingest API answered broker agents").register(meters);
    }
}
