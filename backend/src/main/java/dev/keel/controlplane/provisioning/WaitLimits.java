package dev.keel.controlplane.provisioning;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;

import org.springframework.boot.convert.DurationStyle;

import dev.keel.provisioner.aws.Waits;

/** {@code keel.provisioning.aws.wait-limits}: {@code kind=duration} entries, each the longest wait for that kind of resource. */
final class WaitLimits {

    private WaitLimits() {
    }

    static Waits apply(Waits waits, List<String> entries) {
        Waits limited = waits;
        for (String entry : entries) {
            String[] parts = entry.trim().split("=", 2);
            try {
                if (parts.length != 2) {
                    throw new IllegalArgumentException("not kind=duration");
                }
                Duration limit = DurationStyle.detectAndParse(parts[1].trim());
                limited = limited.withLimit(parts[0].trim(), limit);
            } catch (IllegalArgumentException | DateTimeParseException e) {
                throw new IllegalArgumentException("keel.provisioning.aws.wait-limits: '" + entry
                        + "' is not kind=duration (e.g. fsx-file-system=4h): " + e.getMessage(), e);
            }
        }
        return limited;
    }
}
