package dev.keel.controlplane.billing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

import dev.keel.controlplane.shared.RequestIds;
import dev.keel.marketplace.customers.BuyerResolver;
import dev.keel.marketplace.customers.Resolution;

/**
 * The listing's registration URL: AWS Marketplace posts the buyer's browser here, cross-site and signed in nowhere,
 * with {@code x-amzn-marketplace-token}. The buyer is resolved now, while the token is fresh, and kept against a
 * one-time reference the browser takes to the console's registration page, bound to this browser by a cookie
 * ({@link RegistrationBrowser}). Nothing is linked here: that needs an organization admin's sign-in in this browser.
 * Every answer is a page for a person, never JSON, even from the API's filters ({@link RegistrationErrorPages}).
 */
@RestController
class RegistrationUrlController {

    static final String PATH = "/marketplace/register";
    private static final String TOKEN = "x-amzn-marketplace-token";
    /** A registration is one opaque token of a few hundred characters; anything much larger is not one. */
    static final int MAX_BODY = 8 * 1024;

    private static final Logger log = LoggerFactory.getLogger(RegistrationUrlController.class);

    private final BuyerResolver buyers;
    private final MarketplaceRegistrations registrations;
    private final RegistrationBrowser browser;
    private final URI console;

    RegistrationUrlController(BuyerResolver buyers, MarketplaceRegistrations registrations, RegistrationBrowser browser,
                              @Value("${keel.console.url}") URI console) {
        this.buyers = buyers;
        this.registrations = registrations;
        this.browser = browser;
        this.console = console;
    }

    /** Whatever the request accepts, the answer is a page or a redirect: a browser sent it. */
    @PostMapping(PATH)
    ResponseEntity<String> register(HttpServletRequest request) throws IOException {
        if (request.getContentLengthLong() > MAX_BODY) {
            return page(RegistrationPage.TOO_LARGE);
        }
        MediaType type = request.getContentType() == null ? null : MediaType.parseMediaType(request.getContentType());
        if (type == null || !MediaType.APPLICATION_FORM_URLENCODED.equalsTypeAndSubtype(type)) {
            return page(RegistrationPage.NOT_A_FORM);
        }
        byte[] body;
        try (InputStream in = request.getInputStream()) {
            body = in.readNBytes(MAX_BODY + 1);
        }
        if (body.length > MAX_BODY) {
            return page(RegistrationPage.TOO_LARGE);
        }
        String token = formField(new String(body, StandardCharsets.US_ASCII), TOKEN);
        if (token == null || token.isBlank()) {
            return page(RegistrationPage.MISSING_TOKEN);
        }
        return switch (buyers.resolve(token)) {
            case Resolution.Resolved resolved -> registrations.alreadyLinked(resolved.buyer())
                    ? page(RegistrationPage.ALREADY_LINKED)
                    : toConsole(registrations.keep(resolved.buyer()));
            case Resolution.Refused refused -> refused(refused);
        };
    }

    private ResponseEntity<String> refused(Resolution.Refused refused) {
        return switch (refused.reason()) {
            case INVALID_TOKEN -> {
                log.warn("A registration brought a token AWS Marketplace does not know: {}", refused.detail());
                yield page(RegistrationPage.INVALID_TOKEN);
            }
            case EXPIRED_TOKEN -> page(RegistrationPage.EXPIRED_TOKEN);
            case OTHER_PRODUCT -> {
                log.warn("A registration brought another product's token: {}", refused.detail());
                yield page(RegistrationPage.OTHER_PRODUCT);
            }
            case UNAVAILABLE -> {
                log.warn("AWS Marketplace did not answer ResolveCustomer: {}", refused.detail());
                yield page(RegistrationPage.UNAVAILABLE);
            }
            case SELLER_MISCONFIGURED -> {
                log.error("AWS Marketplace refused the control plane's ResolveCustomer call; check its credentials, "
                        + "permissions and keel.marketplace.product-code: {}", refused.detail());
                yield page(RegistrationPage.OUR_FAULT);
            }
        };
    }

    /** Anything unforeseen still gets a page, not the API's problem document. */
    @ExceptionHandler(Exception.class)
    ResponseEntity<String> failed(Exception e) {
        log.error("The registration URL failed", e);
        return page(RegistrationPage.OUR_FAULT);
    }

    private ResponseEntity<String> toConsole(MarketplaceRegistrations.Kept kept) {
        URI location = UriComponentsBuilder.fromUri(console).path("/register")
                .queryParam("reference", kept.reference()).build().toUri();
        return ResponseEntity.status(HttpStatus.SEE_OTHER).location(location).cacheControl(CacheControl.noStore())
                .header("Referrer-Policy", "no-referrer")
                .header(HttpHeaders.SET_COOKIE, browser.cookie(kept.browserSecret(), kept.lifetime()).toString()).build();
    }

    private static ResponseEntity<String> page(RegistrationPage page) {
        return page.render(RequestIds.current());
    }

    /** The first value of {@code name} in an {@code application/x-www-form-urlencoded} body, or null. */
    static String formField(String body, String name) {
        for (String pair : body.split("&")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            try {
                if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                    return equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
                }
            } catch (IllegalArgumentException malformed) {
                return null;
            }
        }
        return null;
    }
}
