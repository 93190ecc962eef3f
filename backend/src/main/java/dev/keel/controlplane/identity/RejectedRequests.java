package dev.keel.controlplane.identity;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.keel.controlplane.shared.FieldError;

/**
 * Names the part of a request the firewall refused, from its message: a header or a query parameter by its name, as
 * the API names the fields of a request everywhere else, or else the path.
 */
final class RejectedRequests {

    /** How {@code StrictHttpFirewall} names a header or parameter it refuses: {@code header name "X"}, {@code header: "X"}. */
    private static final Pattern NAMED_PART = Pattern.compile("(header|parameter)(?: name)?:? \"([^\"]*)\"");

    private RejectedRequests() {
    }

    static FieldError fieldOf(String firewallMessage) {
        Matcher named = NAMED_PART.matcher(firewallMessage == null ? "" : firewallMessage);
        if (!named.find()) {
            return new FieldError("path", "is not a path this API accepts: no encoded slashes, dot segments, "
                    + "';' parameters, '//' or control characters");
        }
        String name = named.group(2).strip();
        return named.group(1).equals("header")
                ? new FieldError(name, "is a header this API does not accept: its name and value may hold printable "
                        + "characters and tabs, no other control characters")
                : new FieldError(name, "is a query parameter this API does not accept: its name and value may hold "
                        + "printable characters only");
    }
}
