package dev.keel.controlplane.shared;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.springframework.core.io.ClassPathResource;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Serves the API contract ({@code openapi.yaml}, the single source of truth the code is tested
 * against) as YAML and JSON, and a browsable Swagger UI over it.
 */
@RestController
class ApiDocsController {

    private final String yaml;
    private final JsonNode document;

    ApiDocsController() {
        try (InputStream in = new ClassPathResource("openapi.yaml").getInputStream()) {
            yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        document = new YAMLMapper().readTree(yaml);
    }

    @GetMapping(path = "/api/v1/openapi.json", produces = MediaType.APPLICATION_JSON_VALUE)
    JsonNode json() {
        return document;
    }

    @GetMapping(path = "/api/v1/openapi.yaml", produces = "application/yaml")
    String yaml() {
        return yaml;
    }

    @GetMapping(path = "/api/v1/docs", produces = MediaType.TEXT_HTML_VALUE)
    String docs() {
        return """
                <!doctype html>
                <html lang="en">
                <head>
                  <meta charset="utf-8">
                  <title>Keel API</title>
                  <link rel="stylesheet" href="/webjars/swagger-ui/swagger-ui.css">
                </head>
                <body>
                  <div id="ui"></div>
                  <script src="/webjars/swagger-ui/swagger-ui-bundle.js"></script>
                  <script>
                    SwaggerUIBundle({ url: '/api/v1/openapi.json', dom_id: '#ui' });
                  </script>
                </body>
                </html>
                """;
    }
}
