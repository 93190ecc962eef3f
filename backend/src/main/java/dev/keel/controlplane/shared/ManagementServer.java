package dev.keel.controlplane.shared;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.context.annotation.Bean;

import tools.jackson.databind.json.JsonMapper;

/**
 * The management server (actuator on its own port) has a servlet context of its own: it gets the
 * same request ids, query string check and problem documents for container errors as the API.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementServer {

    @Bean
    RequestIds managementRequestIds() {
        return new RequestIds();
    }

    @Bean
    QueryStrings managementQueryStrings(ProblemWriter problems) {
        return new QueryStrings(problems);
    }

    @Bean
    ContainerErrors managementContainerErrors(JsonMapper json) {
        return new ContainerErrors(json);
    }
}
