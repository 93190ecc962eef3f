package dev.keel.provisioner.aws.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.keel.provisioner.aws.DesiredState;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/** Keel's tags in the shapes EC2 and FSx take and give them. */
final class Tags {

    private Tags() {
    }

    static Filter byInstance(UUID instanceId) {
        return filter("tag:" + DesiredState.TAG_INSTANCE, instanceId.toString());
    }

    static Filter filter(String name, String... values) {
        return Filter.builder().name(name).values(values).build();
    }

    static TagSpecification ec2(ResourceType type, Map<String, String> tags) {
        return TagSpecification.builder().resourceType(type).tags(ec2(tags)).build();
    }

    static List<Tag> ec2(Map<String, String> tags) {
        List<Tag> out = new ArrayList<>();
        tags.forEach((k, v) -> out.add(Tag.builder().key(k).value(v).build()));
        return out;
    }

    static Map<String, String> ofEc2(List<Tag> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tags != null) {
            tags.forEach(t -> out.put(t.key(), t.value()));
        }
        return out;
    }

    static List<software.amazon.awssdk.services.fsx.model.Tag> fsx(Map<String, String> tags) {
        List<software.amazon.awssdk.services.fsx.model.Tag> out = new ArrayList<>();
        tags.forEach((k, v) -> out.add(software.amazon.awssdk.services.fsx.model.Tag.builder().key(k).value(v).build()));
        return out;
    }

    static Map<String, String> ofFsx(List<software.amazon.awssdk.services.fsx.model.Tag> tags) {
        Map<String, String> out = new LinkedHashMap<>();
        if (tags != null) {
            tags.forEach(t -> out.put(t.key(), t.value()));
        }
        return out;
    }

    /** The logical name a resource was tagged with, or {@code ?} for one whose tag is gone. */
    static String logicalName(Map<String, String> tags) {
        return tags.getOrDefault(DesiredState.TAG_RESOURCE, "?");
    }
}
