package dev.keel.controlplane.identity;

import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class PrintableTextTest {

    /** The regular expression of Spring's firewall that the predicate stands in for. */
    private static final Pattern FIREWALL = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer abc.def", "application/json; charset=utf-8", "naïve café", "日本語", "😀 emoji",
            "tab\there", "new\nline", "nul\u0000", "del\u007f", "c1\u0085", "unassigned\u0378", "lone\ud800surrogate",
            "private\ue000use", "zero\u200bwidth"})
    void acceptsWhatTheFirewallsExpressionAccepts(String text) {
        assertThat(new PrintableText().test(text)).isEqualTo(FIREWALL.matcher(text).matches());
    }
}
