package dev.keel.broker.localrunner;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceAttributeRequest;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplateVersionsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplatesRequest;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceAttributeName;
import software.amazon.awssdk.services.ec2.model.LaunchTemplate;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateVersion;
import software.amazon.awssdk.services.ec2.model.Tag;

/**
 * Finds an instance's node spec: its own user data (DescribeInstanceAttribute userData), else the launch template
 * it came from (tag {@code aws:ec2launchtemplate:id}/{@code :version}), else the instance's launch template found by
 * {@code tag:byoc:instance-id} (what the provisioner tags it with), latest version.
 */
final class UserDataSource {
    private final Ec2Client ec2;

    UserDataSource(Ec2Client ec2) {
        this.ec2 = ec2;
    }

    Optional<String> userData(Instance instance, String keelInstanceId) {
        try {
            var data = ec2.describeInstanceAttribute(DescribeInstanceAttributeRequest.builder()
                    .instanceId(instance.instanceId()).attribute(InstanceAttributeName.USER_DATA).build()).userData();
            String attr = data == null ? null : data.value();
            if (attr != null && !attr.isBlank()) {
                return Optional.of(decode(attr));
            }
        } catch (RuntimeException e) {
            // fall through to the launch template
        }
        String ltId = tag(instance, "aws:ec2launchtemplate:id");
        String version = tag(instance, "aws:ec2launchtemplate:version");
        if (ltId == null && keelInstanceId != null) {
            ltId = ec2.describeLaunchTemplates(DescribeLaunchTemplatesRequest.builder()
                            .filters(Filter.builder().name("tag:byoc:instance-id").values(keelInstanceId).build()).build())
                    .launchTemplates().stream().map(LaunchTemplate::launchTemplateId).findFirst().orElse(null);
        }
        if (ltId == null) {
            return Optional.empty();
        }
        return ec2.describeLaunchTemplateVersions(DescribeLaunchTemplateVersionsRequest.builder()
                        .launchTemplateId(ltId).versions(version != null ? version : "$Latest").build())
                .launchTemplateVersions().stream().map(LaunchTemplateVersion::launchTemplateData)
                .filter(d -> d != null && d.userData() != null && !d.userData().isBlank())
                .map(d -> decode(d.userData())).findFirst();
    }

    static String tag(Instance i, String key) {
        return i.tags().stream().filter(t -> t.key().equals(key)).map(Tag::value).findFirst().orElse(null);
    }

    private static String decode(String base64) {
        String trimmed = base64.trim();
        if (trimmed.startsWith("{")) {
            return trimmed;
        }
        return new String(Base64.getMimeDecoder().decode(trimmed), StandardCharsets.UTF_8);
    }
}
