package dev.keel.controlplane.shared;

import java.beans.PropertyEditorSupport;
import java.math.BigDecimal;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Numbers in query parameters are read as JSON writes them: {@code 4} and {@code 1.5e3}, never
 * {@code +4}, {@code 04}, {@code 0x10}, {@code 1000d}, {@code NaN} or {@code Infinity}, and only
 * finite; an integer is such a number without a fraction ({@code 10.0} is 10), as in request
 * bodies ({@link StrictJson}). Editors rather than converters: Spring falls back to its lenient
 * parsing when a converter refuses.
 */
@ControllerAdvice
class StrictNumbers {

    private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    @InitBinder
    void strictNumbers(WebDataBinder binder) {
        binder.registerCustomEditor(Integer.class, editor(NUMBER, text -> {
            try {
                return new BigDecimal(text).intValueExact();
            } catch (ArithmeticException fractionOrTooLarge) {
                throw new IllegalArgumentException("not an integer: " + text);
            }
        }));
        binder.registerCustomEditor(Double.class, editor(NUMBER, text -> {
            double value = Double.parseDouble(text);
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("not a finite number: " + text);
            }
            return value;
        }));
    }

    private static PropertyEditorSupport editor(Pattern syntax, Function<String, Number> parse) {
        return new PropertyEditorSupport() {
            @Override
            public void setAsText(String text) {
                if (!syntax.matcher(text).matches()) {
                    throw new IllegalArgumentException("not a number as JSON writes it: " + text);
                }
                setValue(parse.apply(text));
            }
        };
    }
}
