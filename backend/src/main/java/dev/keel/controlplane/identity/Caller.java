package dev.keel.controlplane.identity;

import java.util.List;
import java.util.UUID;

/**
 * Who is calling and on behalf of which organization. Every query the API makes is scoped by
 * {@link #organizationId()}; controllers receive it as a method argument.
 */
public record Caller(String subject, String username, String email, UUID organizationId, String organizationSlug,
                     Role role, List<Membership> memberships) {

    static final String REQUEST_ATTRIBUTE = Caller.class.getName();
}
