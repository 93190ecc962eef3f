package dev.keel.controlplane.shared;

/**
 * Ids in API paths are UUIDs, and request mappings say so: a path such as {@code /instances/plan}
 * is then never read as an instance id, so its methods and {@code Allow} are its own, and a
 * segment that is no UUID names no resource (404).
 */
public final class PathIds {

    /** A path variable pattern, as in {@code "/{instanceId:" + PathIds.UUID + "}"}. */
    public static final String UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

    private PathIds() {
    }
}
