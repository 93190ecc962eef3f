package dev.keel.controlplane.billing;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * The registration URL is the one public, CSRF-exempt path: AWS Marketplace posts the buyer's browser to it from its
 * own site, with no token of ours. It can only resolve a buyer and keep it under a new reference; linking is an API
 * call that needs an admin's token. Any other method or path stays with the API's chain.
 */
@Configuration
class RegistrationSecurity {

    @Bean
    @Order(0)
    SecurityFilterChain marketplaceRegistration(HttpSecurity http) throws Exception {
        return http.securityMatcher(PathPatternRequestMatcher.withDefaults()
                        .matcher(HttpMethod.POST, RegistrationUrlController.PATH))
                .csrf(csrf -> csrf.disable())
                .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .authorizeHttpRequests(auth -> auth.anyRequest().permitAll())
                .build();
    }
}
