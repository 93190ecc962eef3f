package dev.keel.controlplane.contract;

import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import dev.keel.controlplane.shared.ProblemType;
import dev.keel.controlplane.shared.Problems;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every problem type the server can emit is one constant of {@link ProblemType} (problem documents
 * are built from nothing else), and the contract lists exactly those types, both ways.
 */
class ProblemTypesTest {

    @Test
    void theContractListsExactlyTheTypesTheServerCanEmit() {
        Set<String> emitted = new TreeSet<>();
        Arrays.stream(ProblemType.values()).forEach(type -> emitted.add(Problems.TYPE_PREFIX + type.slug()));
        Set<String> documented = new TreeSet<>();
        new OpenApiDocument().root.at("/components/schemas/Problem/properties/type/enum")
                .forEach(type -> documented.add(type.asString()));

        assertThat(documented).as("types the contract lists").isNotEmpty().isEqualTo(emitted);
    }

    @Test
    void theContractNamesEveryTypeInTheProblemDescription() {
        String description = new OpenApiDocument().root.at("/components/schemas/Problem/description").asString();
        assertThat(ProblemType.values()).allSatisfy(type -> assertThat(description).contains("`" + type.slug() + "`"));
    }
}
