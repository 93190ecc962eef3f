package dev.keel.controlplane.shared;

import java.beans.PropertyEditorSupport;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.regex.Pattern;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Points in time in query parameters are RFC 3339 date-times with seconds and an offset, as the
 * contract's {@code Instant} says: {@code 2026-11-23T09:14:05Z}, never epoch milliseconds or an
 * RFC 1123 date, which Spring would read as well. An editor rather than a converter: Spring falls
 * back to its lenient parsing when a converter refuses.
 */
@ControllerAdvice
class StrictInstants {

    private static final Pattern RFC_3339 = Pattern.compile(
            "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9]|[+-]18:00)");

    @InitBinder
    void strictInstants(WebDataBinder binder) {
        binder.registerCustomEditor(Instant.class, new PropertyEditorSupport() {
            @Override
            public void setAsText(String text) {
                if (!RFC_3339.matcher(text).matches()) {
                    throw new IllegalArgumentException("not an RFC 3339 date-time: " + text);
                }
                try {
                    setValue(OffsetDateTime.parse(text).toInstant());
                } catch (DateTimeException impossibleDate) {
                    throw new IllegalArgumentException(impossibleDate.getMessage(), impossibleDate);
                }
            }
        });
    }
}
