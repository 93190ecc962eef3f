package dev.keel.controlplane.identity;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** One {@code org_memberships} token claim value, {@code "<organization slug>:<role>"}. */
public record Membership(String slug, Role role) {

    private static final Pattern VALUE = Pattern.compile("([a-z0-9][a-z0-9-]{0,62}):(admin|editor|viewer)");

    /** The memberships a token grants; malformed values are ignored rather than trusted. */
    public static List<Membership> fromClaim(List<String> values) {
        List<Membership> memberships = new ArrayList<>();
        for (String value : values == null ? List.<String>of() : values) {
            var match = VALUE.matcher(value);
            if (match.matches()) {
                memberships.add(new Membership(match.group(1), Role.parse(match.group(2))));
            }
        }
        return memberships;
    }
}
