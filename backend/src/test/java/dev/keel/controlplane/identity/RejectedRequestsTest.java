package dev.keel.controlplane.identity;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedException;

import dev.keel.controlplane.shared.FieldError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The field a refusal of the API's own firewall names, read from what that firewall says. */
class RejectedRequestsTest {

    private final HttpFirewall firewall = new SecurityConfig().firewall();

    @Test
    void aHeaderWithAControlCharacterIsNamedByItsName() {
        MockHttpServletRequest request = get("/api/v1/instances");
        request.addHeader("X-Trace", "abc\u0007def");

        assertThat(refusal(request).field()).isEqualTo("X-Trace");
    }

    @Test
    void aHeaderNameWithAControlCharacterIsNamedAsSent() {
        MockHttpServletRequest request = get("/api/v1/instances");
        request.addHeader("X-\u0001Odd", "value");

        assertThat(refusal(request).field()).isEqualTo("X-\u0001Odd");
    }

    @Test
    void aQueryParameterWithAControlCharacterIsNamedByItsName() {
        MockHttpServletRequest request = get("/api/v1/instances");
        request.addParameter("na\u0002me", "x");

        assertThat(refusal(request).field()).isEqualTo("na\u0002me");
    }

    @Test
    void aPathTrickIsThePath() {
        assertThat(refusal(get("/api/v1//instances")).field()).isEqualTo("path");
        assertThat(refusal(get("/api/v1/instances;x=y")).field()).isEqualTo("path");
    }

    private FieldError refusal(MockHttpServletRequest request) {
        RequestRejectedException refused = catchThrowableOfType(RequestRejectedException.class, () -> {
            // Headers and parameters are checked when read, as the application reads them.
            var checked = firewall.getFirewalledRequest(request);
            checked.getHeaderNames().asIterator().forEachRemaining(name -> checked.getHeaders(name).asIterator()
                    .forEachRemaining(value -> { }));
            checked.getParameterMap();
        });
        assertThat(refused).as("the firewall refuses it").isNotNull();
        return RejectedRequests.fieldOf(refused.getMessage());
    }

    private static MockHttpServletRequest get(String path) {
        MockHttpServletRequest request = new MockHttpServletRequest("GET", path);
        request.setRequestURI(path);
        request.setServletPath(path);
        return request;
    }
}
