package dev.keel.controlplane.billing;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpMethod;
import org.springframework.stereotype.Component;

import dev.keel.controlplane.shared.ErrorPages;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.RequestIds;

/**
 * What the API's filters refuse on the registration URL (a body over {@code keel.api.max-request-body}, a query
 * string they cannot decode, a path the firewall rejects) reaches the buyer's browser as a registration page: a
 * problem document there would show as raw JSON.
 */
@Component
class RegistrationErrorPages implements ErrorPages {

    @Override
    public boolean serves(HttpServletRequest request) {
        return HttpMethod.POST.matches(request.getMethod()) && RegistrationUrlController.PATH.equals(request.getRequestURI());
    }

    @Override
    public void write(HttpServletResponse response, ProblemType type) throws IOException {
        RegistrationPage.forProblem(type).write(response, RequestIds.current());
    }
}
