package dev.keel.controlplane.shared;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

import tools.jackson.databind.json.JsonMapper;

/** Writes a problem document from code that runs before Spring MVC (servlet filters). */
@Component
public class ProblemWriter {

    private final JsonMapper json;

    public ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ApiException e) throws IOException {
        write(request, response, e.type(), e.getMessage(), e.errors());
    }

    public void write(HttpServletRequest request, HttpServletResponse response, ProblemType type, String detail,
                      List<FieldError> errors) throws IOException {
        response.setStatus(type.status().value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        json.writeValue(response.getOutputStream(), Problems.of(type, detail, errors, request.getRequestURI()));
    }
}
