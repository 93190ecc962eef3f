package dev.keel.controlplane.shared;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a problem document from code that runs before Spring MVC (servlet filters), or, on a path with
 * {@link ErrorPages} of its own, that path's page.
 */
@Component
public class ProblemWriter {

    private final JsonMapper json;
    private final ObjectProvider<ErrorPages> pages;

    public ProblemWriter(JsonMapper json, ObjectProvider<ErrorPages> pages) {
        this.json = json;
        this.pages = pages;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ApiException e) throws IOException {
        write(request, response, e.type(), e.getMessage(), e.errors());
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemType type, String detail,
                      List<FieldError> errors) throws IOException {
        ErrorPages page = pages.stream().filter(candidate -> candidate.serves(request)).findFirst().orElse(null);
        if (page != null) {
            page.write(response, type);
            return;
        }
        response.setStatus(type.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), Problems.of(type, detail, errors, request.getRequestURI()));
    }
}
