package dev.keel.controlplane.instances;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.keel.controlplane.catalog.SizingCatalog;
import dev.keel.controlplane.catalog.SizingCatalogs;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;
import dev.keel.provisioner.WalType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The capacity rules answer every case of {@code spec-rules-cases.json}, the file the console's rules are tested
 * against too, so the two cannot drift apart.
 */
class SpecRulesCasesTest {

    private static final SizingCatalog CATALOG = new SizingCatalogs().current();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNode SHARED = read("/spec-rules-cases.json");

    @Test
    void theCasesAreWrittenAgainstTheCurrentCatalog() {
        JsonNode served = JSON.valueToTree(CATALOG);
        assertThat(mismatches(SHARED.get("catalog"), served, "catalog"))
                .as("spec-rules-cases.json's catalog against the served one").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theApiAnswersEachCaseAsTheConsoleDoes(JsonNode shared) {
        JsonNode fsx = shared.get("fsx");
        SpecRules rules = new SpecRules(CATALOG).capacity("zones", shared.get("zones").asInt(),
                shared.get("wal").isNull() ? null : new WalSpec(WalType.valueOf(shared.get("wal").asString())),
                shared.get("aku").isNull() ? null : shared.get("aku").asInt(),
                fsx.isNull() ? null : new FsxSpec(fsx.get("throughputMBps").asInt(), fsx.get("count").asInt()));
        List<FieldError> expected = StreamSupport.stream(shared.get("errors").spliterator(), false)
                .map(e -> new FieldError(e.get("field").asString(), e.get("message").asString())).toList();
        ApiException refused = catchThrowableOfType(ApiException.class, rules::orThrow);
        assertThat(refused == null ? List.of() : refused.errors()).containsExactlyElementsOf(expected);
    }

    static Stream<Named<JsonNode>> cases() {
        return StreamSupport.stream(SHARED.get("cases").spliterator(), false)
                .map(c -> Named.of(c.get("case").asString(), c));
    }

    /** Where {@code expected} (a part of the catalog) differs from {@code actual}; numbers compare by value. */
    private static List<String> mismatches(JsonNode expected, JsonNode actual, String path) {
        List<String> out = new ArrayList<>();
        if (actual == null || actual.isMissingNode()) {
            out.add(path + " is not in the served catalog");
        } else if (expected.isObject()) {
            for (Map.Entry<String, JsonNode> field : expected.properties()) {
                out.addAll(mismatches(field.getValue(), actual.get(field.getKey()), path + "." + field.getKey()));
            }
        } else if (expected.isArray()) {
            if (expected.size() != actual.size()) {
                out.add(path + " has " + actual.size() + " entries, not " + expected.size());
            } else {
                for (int i = 0; i < expected.size(); i++) {
                    out.addAll(mismatches(expected.get(i), actual.get(i), path + "[" + i + "]"));
                }
            }
        } else if (expected.isNumber() ? !actual.isNumber() || expected.asDouble() != actual.asDouble()
                : !expected.equals(actual)) {
            out.add(path + " is " + actual + ", not " + expected);
        }
        return out;
    }

    private static JsonNode read(String resource) {
        try (InputStream in = SpecRulesCasesTest.class.getResourceAsStream(resource)) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
