package dev.keel.controlplane.billing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.util.HtmlUtils;

import dev.keel.controlplane.shared.ProblemType;

/**
 * The page a buyer's browser gets from the registration URL when it cannot go on to the console: what happened and
 * what to do, in plain HTML with nothing to load (the buyer arrives from AWS, signed in nowhere).
 */
record RegistrationPage(HttpStatus status, String title, String explanation, String whatToDo) {

    /** No script, no frames, no outside resources, nothing cached or sent on as a referrer. */
    private static final String POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; "
            + "form-action 'none'; base-uri 'none'";

    ResponseEntity<String> render(String requestId) {
        return ResponseEntity.status(status).headers(headers()).body(html(requestId));
    }

    /** The same page, from a servlet filter that runs before the registration URL's handler. */
    void write(HttpServletResponse response, String requestId) throws IOException {
        response.setStatus(status.value());
        headers().forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
        response.getOutputStream().write(html(requestId).getBytes(StandardCharsets.UTF_8));
    }

    /** The page for an error the API's filters raised on the registration URL before it could read the request. */
    static RegistrationPage forProblem(ProblemType type) {
        return switch (type) {
            case PAYLOAD_TOO_LARGE -> TOO_LARGE;
            case UNSUPPORTED_MEDIA_TYPE -> NOT_A_FORM;
            default -> type.status().is5xxServerError() ? OUR_FAULT : new RegistrationPage(type.status(),
                    "This registration cannot be read", "The request that brought you here is not what AWS "
                    + "Marketplace sends, so it was not read. Nothing was set up.", START_AGAIN);
        };
    }

    private static HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8));
        headers.setCacheControl(CacheControl.noStore());
        headers.set("Content-Security-Policy", POLICY);
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set(HttpHeaders.CONTENT_LANGUAGE, "en");
        return headers;
    }

    private String html(String requestId) {
        return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>%1$s — Keel</title>
                <style>
                body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; color: #16191f; }
                h1 { font-size: 1.5rem; }
                .id { color: #5f6b7a; font-size: 0.875rem; }
                </style>
                </head>
                <body>
                <h1>%1$s</h1>
                <p>%2$s</p>
                <p>%3$s</p>
                <p class="id">Request id, if you contact support: %4$s</p>
                </body>
                </html>
                """.formatted(HtmlUtils.htmlEscape(title), HtmlUtils.htmlEscape(explanation),
                HtmlUtils.htmlEscape(whatToDo), HtmlUtils.htmlEscape(String.valueOf(requestId)));
    }

    private static final String START_AGAIN = "Go back to AWS Marketplace, open your subscription to Keel (Your "
            + "Marketplace software) and choose Set up your account again.";

    static final RegistrationPage MISSING_TOKEN = new RegistrationPage(HttpStatus.BAD_REQUEST,
            "This page is for AWS Marketplace", "The registration came without the token AWS Marketplace sends "
            + "(x-amzn-marketplace-token), so we cannot tell whose subscription it is.", START_AGAIN);

    static final RegistrationPage INVALID_TOKEN = new RegistrationPage(HttpStatus.BAD_REQUEST,
            "This registration link is not valid", "AWS Marketplace does not recognise the registration token "
            + "your browser brought here: it was not issued by AWS, or it was changed on the way.", START_AGAIN);

    static final RegistrationPage EXPIRED_TOKEN = new RegistrationPage(HttpStatus.GONE,
            "This registration link has expired", "AWS Marketplace registration tokens are valid for a short "
            + "time and only once, and this one can no longer be used.", START_AGAIN);

    static final RegistrationPage OTHER_PRODUCT = new RegistrationPage(HttpStatus.BAD_REQUEST,
            "This subscription is for another product", "The registration token belongs to a subscription to a "
            + "product other than Keel.", "Set up your account from that product's seller; to use Keel, "
            + "subscribe to Keel on AWS Marketplace.");

    static final RegistrationPage ALREADY_LINKED = new RegistrationPage(HttpStatus.CONFLICT,
            "This subscription is already set up", "Your subscription to Keel is already linked to an "
            + "organization, and pays for it.", "Sign in to the Keel console as a member of that organization. If "
            + "you cannot, ask one of its admins to invite you.");

    static final RegistrationPage TOO_LARGE = new RegistrationPage(HttpStatus.CONTENT_TOO_LARGE,
            "This registration is too large", "The request is larger than an AWS Marketplace registration ever "
            + "is, so it was not read.", START_AGAIN);

    static final RegistrationPage NOT_A_FORM = new RegistrationPage(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
            "This page is for AWS Marketplace", "AWS Marketplace sends buyers here with a form "
            + "(application/x-www-form-urlencoded); this request was something else.", START_AGAIN);

    static final RegistrationPage UNAVAILABLE = new RegistrationPage(HttpStatus.SERVICE_UNAVAILABLE,
            "AWS Marketplace did not answer", "We could not check your subscription with AWS Marketplace just "
            + "now. Nothing was set up.", "Reload this page in a minute (your browser will ask to send the form "
            + "again: allow it). If it keeps failing, start again from AWS Marketplace.");

    static final RegistrationPage OUR_FAULT = new RegistrationPage(HttpStatus.INTERNAL_SERVER_ERROR,
            "We could not set up your subscription", "Something went wrong on our side; your subscription on AWS "
            + "Marketplace is not affected, and nothing was set up here.", "Try again from AWS Marketplace in a "
            + "few minutes. If it keeps failing, contact Keel support with the request id below.");
}
