package dev.keel.controlplane.identity;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpMethod;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.ProblemWriter;

/**
 * Turns a validated token into a {@link Caller}: picks the organization (the {@code X-Organization}
 * header, else the first membership), records the membership, and refuses changes from viewers.
 * The role rule lives here, once, rather than on each endpoint: safe methods read, others change.
 */
class CallerFilter extends OncePerRequestFilter {

    static final String ORGANIZATION_HEADER = "X-Organization";
    static final String MEMBERSHIPS_CLAIM = "org_memberships";
    private static final Pattern SLUG = Pattern.compile("^[a-z][a-z0-9-]{1,62}[a-z0-9]$");
    private static final Pattern READ_ONLY_POSTS = Pattern.compile("/api/v1/(estimates|instances(/[^/]+)?/plan)");

    private final Organizations organizations;
    private final ProblemWriter problems;

    CallerFilter(Organizations organizations, ProblemWriter problems) {
        this.organizations = organizations;
        this.problems = problems;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !(SecurityContextHolder.getContext().getAuthentication() instanceof Authentication auth
                && auth.getPrincipal() instanceof Jwt);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Jwt jwt = (Jwt) SecurityContextHolder.getContext().getAuthentication().getPrincipal();
        try {
            Caller caller = resolve(jwt, request.getHeader(ORGANIZATION_HEADER));
            if (!caller.role().canChange() && changes(request)) {
                throw ApiException.of(ProblemType.FORBIDDEN, "Role " + caller.role().wireName() + " in organization "
                        + caller.organizationSlug() + " can read but not change resources; ask an admin for the editor role.");
            }
            request.setAttribute(Caller.REQUEST_ATTRIBUTE, caller);
        } catch (ApiException e) {
            problems.write(request, response, e);
            return;
        }
        chain.doFilter(request, response);
    }

    private Caller resolve(Jwt jwt, String requestedSlug) {
        List<Membership> memberships = Membership.fromClaim(jwt.getClaimAsStringList(MEMBERSHIPS_CLAIM));
        if (memberships.isEmpty()) {
            throw ApiException.of(ProblemType.NOT_A_MEMBER, "The token carries no organization membership (claim " + MEMBERSHIPS_CLAIM + ").");
        }
        if (requestedSlug != null && !SLUG.matcher(requestedSlug).matches()) {
            throw ApiException.validation(ORGANIZATION_HEADER, "must be an organization slug such as acme, "
                    + "3 to 64 lowercase letters, digits and hyphens; leave the header out for your first organization");
        }
        Membership chosen = requestedSlug == null
                ? memberships.getFirst()
                : memberships.stream().filter(m -> m.slug().equals(requestedSlug)).findFirst()
                        .orElseThrow(() -> ApiException.of(ProblemType.NOT_A_MEMBER, "You are not a member of organization '" + requestedSlug
                                + "'; your organizations: " + memberships.stream().map(Membership::slug).toList() + "."));
        Organization organization = organizations.ensure(chosen.slug());
        String username = Optional.ofNullable(jwt.getClaimAsString("preferred_username"))
                .orElse(Optional.ofNullable(jwt.getClaimAsString("client_id")).orElse(jwt.getSubject()));
        organizations.recordMembership(organization.id(), jwt.getSubject(), username, chosen.role());
        return new Caller(jwt.getSubject(), username, jwt.getClaimAsString("email"), organization.id(),
                organization.slug(), chosen.role(), memberships);
    }

    /** Safe methods read; so do pricing and planning a spec, POSTs only because the spec is a body. */
    private static boolean changes(HttpServletRequest request) {
        String method = request.getMethod();
        boolean safe = HttpMethod.GET.matches(method) || HttpMethod.HEAD.matches(method) || HttpMethod.OPTIONS.matches(method);
        return !safe && !READ_ONLY_POSTS.matcher(request.getRequestURI()).matches();
    }
}
