package dev.keel.broker.agent;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An upstream release version: major.minor.patch with an optional suffix (1.6.0-rc0, 1.6.0-bitnami). */
public record Version(int major, int minor, int patch, String suffix) implements Comparable<Version> {
    private static final Pattern FORM = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)(?:-([A-Za-z0-9.]+))?$");

    public static Version parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a release version such as 1.4.1, got '" + text + "'");
        }
        return new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                m.group(4));
    }

    public static Version of(int major, int minor, int patch) {
        return new Version(major, minor, patch, null);
    }

    /** Orders by numbers only: a pre-release of x.y.z counts as x.y.z (its code is that release's). */
    @Override
    public int compareTo(Version o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        if (c == 0) {
            c = Integer.compare(patch, o.patch);
        }
        return c;
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch + (suffix == null ? "" : "-" + suffix);
    }
}
