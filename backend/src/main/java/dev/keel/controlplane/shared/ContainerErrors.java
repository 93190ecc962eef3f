package dev.keel.controlplane.shared;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.apache.catalina.Container;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Errors the servlet container answers on its own (a URI it will not decode, a status sent with
 * {@code sendError} and no body, a TRACE) are problem documents too, never its HTML page.
 */
@Component
class ContainerErrors implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

    private static final Logger log = LoggerFactory.getLogger(ContainerErrors.class);

    private final JsonMapper json;

    ContainerErrors(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void customize(ConfigurableTomcatWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Container parent = context.getParent();
            if (parent instanceof StandardHost host) {
                Pipeline pipeline = host.getPipeline();
                for (Valve valve : pipeline.getValves()) {
                    if (valve instanceof ErrorReportValve) {
                        pipeline.removeValve(valve);
                    }
                }
                host.setErrorReportValveClass(ProblemReport.class.getName());
                pipeline.addValve(new ProblemReport(json));
            }
        });
    }

    /** After Spring Boot's own customizer, which installs the HTML error report valve. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    static final class ProblemReport extends ErrorReportValve {

        private final JsonMapper json;

        ProblemReport(JsonMapper json) {
            this.json = json;
        }

        @Override
        protected void report(Request request, Response response, Throwable throwable) {
            int status = response.getStatus();
            if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
                return;
            }
            String requestId = Objects.requireNonNullElseGet(response.getHeader(RequestIds.HEADER),
                    () -> UUID.randomUUID().toString());
            String reason = response.getMessage() == null || response.getMessage().isBlank() ? "" : " (" + response.getMessage() + ")";
            log.warn("Answered {} to {} {} before the API saw it{} requestId={}", status, request.getMethod(),
                    request.getDecodedRequestURI(), reason, requestId);
            ProblemType type = ProblemType.forStatus(status);
            String detail = status < 500
                    ? "The server refused this request before reading it" + reason + "."
                    : "The request failed on our side. Quote the request id when you contact support.";
            MDC.put(RequestIds.MDC_KEY, requestId);
            try (OutputStream out = response.getOutputStream()) {
                response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
                response.setHeader(RequestIds.HEADER, requestId);
                json.writeValue(out, Problems.of(type, HttpStatusCode.valueOf(status), detail, List.of(),
                        request.getRequestURI()));
            } catch (IOException | RuntimeException e) {
                log.warn("Could not write the problem document for {}: {}", status, e.toString());
            } finally {
                MDC.remove(RequestIds.MDC_KEY);
            }
        }
    }
}
