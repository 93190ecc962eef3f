package dev.keel.controlplane.identity;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.web.BearerTokenAuthenticationEntryPoint;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.security.web.firewall.HttpFirewall;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.firewall.StrictHttpFirewall;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.ProblemWriter;

/**
 * The API is an OAuth2 resource server; documentation and probes are open, anything else needs a
 * token. Requests the firewall refuses (encoded slashes, {@code ;} parameters, {@code //}) get a
 * problem document too; methods are left to the API, which answers 405 with {@code Allow}.
 */
@Configuration
class SecurityConfig implements WebMvcConfigurer {

    private static final Logger log = LoggerFactory.getLogger(SecurityConfig.class);

    private static final String[] OPEN = {
            "/livez", "/readyz", "/actuator/**",
            "/api/v1/openapi.json", "/api/v1/openapi.yaml", "/api/v1/docs", "/api/v1/docs/**", "/webjars/**",
    };

    /**
     * Broker agents send their instance's token, not a user's JWT: the ingest endpoint checks it, so
     * this chain must not let the resource server try to decode it.
     */
    @Bean
    @Order(1)
    SecurityFilterChain ingest(HttpSecurity http) throws Exception {
        return http.securityMatcher("/ingest/**")
                .csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth.anyRequest().permitAll())
                .build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain api(HttpSecurity http, Organizations organizations, ProblemWriter problems, JwtDecoder decoder,
                            FailedAuthentications failures) throws Exception {
        ProblemEntryPoint refusals = new ProblemEntryPoint(problems, failures);
        BearerTokens bearerTokens = new BearerTokens();
        VerifiedTokens verifiedTokens = new VerifiedTokens(decoder);
        http.csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth
                        .requestMatchers(OPEN).permitAll()
                        .anyRequest().authenticated())
                .oauth2ResourceServer(oauth -> oauth.bearerTokenResolver(bearerTokens)
                        .jwt(jwt -> jwt.decoder(verifiedTokens))
                        .authenticationEntryPoint(refusals)
                        .accessDeniedHandler(refusals))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(refusals).accessDeniedHandler(refusals))
                .addFilterBefore(new AuthenticationThrottle(bearerTokens, verifiedTokens, failures, problems),
                        BearerTokenAuthenticationFilter.class)
                .addFilterAfter(new CallerFilter(organizations, problems), BearerTokenAuthenticationFilter.class);
        return http.build();
    }

    /**
     * No observation of each security filter, authentication and authorization: they cost about a sixth of a request's
     * CPU, for timers nobody reads; every request is still timed, with its status, as {@code http.server.requests}.
     */
    @Bean
    SecurityObservationSettings securityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    @Bean
    HttpFirewall firewall() {
        StrictHttpFirewall firewall = new StrictHttpFirewall();
        firewall.setUnsafeAllowAnyHttpMethod(true);
        firewall.setAllowedHeaderNames(PrintableText.NAME);
        firewall.setAllowedHeaderValues(PrintableText.HEADER_VALUE);
        firewall.setAllowedParameterNames(PrintableText.NAME);
        return firewall;
    }

    @Bean
    RequestRejectedHandler requestRejected(ProblemWriter problems) {
        return (request, response, e) -> {
            log.warn("Refused {} {}: {}", request.getMethod(), request.getRequestURI(), e.getMessage());
            problems.write(request, response, ProblemType.MALFORMED_REQUEST, e.getMessage(),
                    List.of(RejectedRequests.fieldOf(e.getMessage())));
        };
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new CallerArgumentResolver());
    }

    /**
     * 401 and 403 from the security layer, as problem documents with the standard challenge header. Every refused token
     * gets the same answer: why it was refused (its algorithm, signature, expiry) is logged, not told to whoever sent it.
     */
    private record ProblemEntryPoint(ProblemWriter problems, FailedAuthentications failures)
            implements AuthenticationEntryPoint, AccessDeniedHandler {

        private static final String DETAIL = "Send a valid bearer token from the identity provider.";
        private static final BearerTokenAuthenticationEntryPoint CHALLENGE = new BearerTokenAuthenticationEntryPoint();
        private static final InvalidBearerTokenException REFUSED = new InvalidBearerTokenException("The token was refused");

        @Override
        public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
                throws IOException {
            // A token sent and refused; a request without one (InsufficientAuthenticationException) is no attempt.
            if (e instanceof OAuth2AuthenticationException) {
                log.info("Refused the bearer token of {} {} from {}: {}", request.getMethod(), request.getRequestURI(),
                        request.getRemoteAddr(), e.getMessage());
                failures.record(request.getRemoteAddr());
                CHALLENGE.commence(request, response, REFUSED);
            } else {
                CHALLENGE.commence(request, response, e);
            }
            problems.write(request, response, ProblemType.UNAUTHORIZED, DETAIL, List.of());
        }

        @Override
        public void handle(HttpServletRequest request, HttpServletResponse response, AccessDeniedException e)
                throws IOException {
            problems.write(request, response, ProblemType.FORBIDDEN, e.getMessage(), List.of());
        }
    }
}
