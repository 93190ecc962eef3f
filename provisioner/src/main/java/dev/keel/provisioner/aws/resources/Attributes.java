package dev.keel.provisioner.aws.resources;

import java.util.Map;

/** Observed attributes, leaving out what AWS did not say. */
final class Attributes {

    private Attributes() {
    }

    static void put(Map<String, String> attributes, String key, Object value) {
        if (value != null) {
            attributes.put(key, value.toString());
        }
    }
}
