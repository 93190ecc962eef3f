package dev.keel.controlplane.identity;

import java.util.Locale;

/** What a member may do in an organization. Viewers read; editors and admins also change. */
public enum Role {
    VIEWER, EDITOR, ADMIN;

    public boolean canChange() {
        return this != VIEWER;
    }

    public static Role parse(String value) {
        return Role.valueOf(value.toUpperCase(Locale.ROOT));
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
