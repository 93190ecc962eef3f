package dev.keel.controlplane.identity;

import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class PrintableTextTest {

    /** The regular expressions of Spring Security's {@code StrictHttpFirewall} the predicates stand in for. */
    private static final Pattern NAMES = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern HEADER_VALUES = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer abc.def", "application/json; charset=utf-8", "naïve café", "日本語", "😀 emoji",
            "tab\there", "\t", "new\nline", "cr\r", "nul\u0000", "del\u007f", "c1\u0085", "unassigned\u0378",
            "lone\ud800surrogate", "private\ue000use", "zero\u200bwidth", "pipe|bar"})
    void acceptsWhatTheFirewallsExpressionsAccept(String text) {
        assertThat(PrintableText.NAME.test(text)).as("as a name").isEqualTo(NAMES.matcher(text).matches());
        assertThat(PrintableText.HEADER_VALUE.test(text)).as("as a header value")
                .isEqualTo(HEADER_VALUES.matcher(text).matches());
    }
}
