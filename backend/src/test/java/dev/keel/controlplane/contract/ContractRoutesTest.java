package dev.keel.controlplane.contract;

import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.keel.controlplane.shared.PathIds;
import dev.keel.controlplane.support.ApiTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The server handles exactly the operations the contract declares, no more and no fewer. */
class ContractRoutesTest extends ApiTest {

    private static final Set<String> DOCUMENTATION = Set.of("/api/v1/openapi.json", "/api/v1/openapi.yaml", "/api/v1/docs");

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void everyHandlerIsInTheContractAndEveryContractOperationHasAHandler() {
        Set<String> served = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach(info -> info.getPatternValues().stream()
                .filter(p -> p.startsWith("/api/v1/") && !DOCUMENTATION.contains(p))
                .map(p -> p.replace(":" + PathIds.UUID, ""))
                .forEach(p -> info.getMethodsCondition().getMethods()
                        .forEach(m -> served.add(m.name() + " " + p.substring("/api/v1".length())))));
        Set<String> documented = new TreeSet<>();
        new OpenApiDocument().operations().forEach(op -> documented.add(op.method() + " " + op.path()));
        assertThat(served).isEqualTo(documented);
    }
}
