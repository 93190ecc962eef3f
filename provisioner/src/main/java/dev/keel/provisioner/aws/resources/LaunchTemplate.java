package dev.keel.provisioner.aws.resources;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.BootScript;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.Json;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateTagSpecificationRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateVersion;
import software.amazon.awssdk.services.ec2.model.RequestLaunchTemplateData;
import software.amazon.awssdk.services.ec2.model.ResourceType;

/**
 * The brokers' launch template: the broker image, the instance type, the brokers' security group and instance
 * profile, and the node spec as user data, with the NFS endpoints of the WAL file systems, which only exist once AWS
 * has made them. Its default version is what new brokers boot; a change makes a new version and makes it the default.
 */
public final class LaunchTemplate implements ManagedResource {

    /** How each version describes itself: {@code spec <version>}. */
    private static final String SPEC_PREFIX = "spec ";

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        Ec2Client ec2 = aws.ec2();
        return AwsCalls.call("ec2:DescribeLaunchTemplates", () -> ec2.describeLaunchTemplatesPaginator(b -> b
                .filters(Tags.byInstance(instanceId))).launchTemplates().stream().toList()).stream().map(t -> {
                    Map<String, String> attributes = new HashMap<>();
                    attributes.put("name", t.launchTemplateName());
                    attributes.put("defaultVersion", String.valueOf(t.defaultVersionNumber()));
                    defaultVersion(ec2, t.launchTemplateId()).ifPresent(v -> describe(v, attributes));
                    return new ObservedState.Resource(ObservedState.LAUNCH_TEMPLATE,
                            Tags.logicalName(Tags.ofEc2(t.tags())), t.launchTemplateId(), attributes);
                }).toList();
    }

    /**
     * What new brokers boot with, from the default version: the spec version its description names (a tag would be
     * a second copy to keep in step), its machine image, its security group, and the broker image and NFS endpoints
     * in its user data.
     */
    private static void describe(LaunchTemplateVersion version, Map<String, String> attributes) {
        String description = version.versionDescription();
        if (description != null && description.startsWith(SPEC_PREFIX)) {
            attributes.put("specVersion", description.substring(SPEC_PREFIX.length()));
        }
        var data = version.launchTemplateData();
        if (data == null) {
            return;
        }
        data.securityGroupIds().stream().findFirst().ifPresent(id -> attributes.put("securityGroupId", id));
        Attributes.put(attributes, "imageId", data.imageId());
        if (data.userData() != null) {
            String script = new String(Base64.getDecoder().decode(data.userData()), StandardCharsets.UTF_8);
            Attributes.put(attributes, "brokerImage", BootScript.brokerImage(script));
            String spec = BootScript.nodeSpec(script);
            if (spec != null) {
                Attributes.put(attributes, "walNfsEndpoints", Json.member(spec, "walNfsEndpoints"));
            }
        }
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        DesiredState.LaunchTemplate lt = desired.launchTemplate();
        var seen = observed.find(ObservedState.LAUNCH_TEMPLATE, lt.logicalName());
        if (seen.isEmpty()) {
            return List.of(new ResourceChange(Action.CREATE, ObservedState.LAUNCH_TEMPLATE, lt.logicalName(), null,
                    "image " + lt.imageId() + ", broker image " + lt.brokerImage() + ", " + lt.instanceType()
                            + ", spec " + lt.specVersion()));
        }
        String reason = null;
        Optional<String> groupId = observed.idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName());
        if (!lt.specVersion().equals(seen.get().attribute("specVersion"))) {
            reason = "new default version: spec " + seen.get().attribute("specVersion") + " -> " + lt.specVersion();
        } else if (groupId.isEmpty() || !groupId.get().equals(seen.get().attribute("securityGroupId"))) {
            reason = "new default version: the brokers' security group is "
                    + groupId.map(id -> "now " + id).orElse("to be created anew");
        } else if (!desired.fileSystems().isEmpty() && !sameEndpoints(endpoints(desired, observed),
                seen.get().attribute("walNfsEndpoints"))) {
            reason = "new default version: the WAL file systems' NFS endpoints changed";
        }
        return reason == null ? List.of() : List.of(new ResourceChange(Action.UPDATE, ObservedState.LAUNCH_TEMPLATE,
                lt.logicalName(), seen.get().id(), reason));
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        for (ResourceChange change : changes) {
            RequestLaunchTemplateData data = data(ctx);
            if (change.action() == Action.CREATE) {
                create(ctx, data);
            } else {
                newDefaultVersion(ctx, change.id(), data);
            }
        }
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        for (ResourceChange change : deletes) {
            try {
                ctx.aws().ec2().deleteLaunchTemplate(b -> b.launchTemplateId(change.id()));
            } catch (SdkException e) {
                if (!AwsCalls.hasCode(e, "InvalidLaunchTemplateId.NotFound", "InvalidLaunchTemplateId.Malformed")) {
                    throw AwsCalls.classify("ec2:DeleteLaunchTemplate", e);
                }
            }
        }
        ctx.await(ObservedState.LAUNCH_TEMPLATE, "launch templates to be gone", null,
                () -> observe(ctx.aws(), ctx.desired()).isEmpty());
        ctx.observedOwn(List.of());
    }

    private RequestLaunchTemplateData data(StepContext ctx) {
        DesiredState desired = ctx.desired();
        DesiredState.LaunchTemplate lt = desired.launchTemplate();
        if (lt.imageId() == null || lt.imageId().isBlank()) {
            throw new ProvisioningException("NO_MACHINE_IMAGE", "No machine image was resolved for the brokers of "
                    + "instance " + desired.instanceId() + " in " + desired.region() + ".", false);
        }
        String groupId = ctx.observed().idOf(ObservedState.SECURITY_GROUP, desired.securityGroup().logicalName())
                .orElseThrow(() -> new ProvisioningException("NO_SECURITY_GROUP", "The security group must exist "
                        + "before the launch template; run create-security-group first.", true));
        List<DesiredState.NfsEndpoint> endpoints = endpoints(desired, ctx.observed());
        if (endpoints.size() < desired.fileSystems().size()) {
            throw new ProvisioningException("WAL_FILE_SYSTEM_NOT_READY", "The WAL file systems have no NFS endpoint "
                    + "yet; they are created by the step before this one.", true);
        }
        return RequestLaunchTemplateData.builder()
                .imageId(lt.imageId()).instanceType(lt.instanceType())
                .iamInstanceProfile(p -> p.name(desired.role().profileName()))
                .securityGroupIds(groupId)
                .userData(lt.userDataBase64(endpoints))
                .metadataOptions(m -> m.httpTokens("required").instanceMetadataTags("enabled"))
                .tagSpecifications(LaunchTemplateTagSpecificationRequest.builder().resourceType(ResourceType.INSTANCE)
                        .tags(Tags.ec2(desired.tags("broker"))).build())
                .build();
    }

    private void create(StepContext ctx, RequestLaunchTemplateData data) {
        DesiredState.LaunchTemplate lt = ctx.desired().launchTemplate();
        try {
            ctx.aws().ec2().createLaunchTemplate(b -> b.launchTemplateName(lt.name())
                    .versionDescription(SPEC_PREFIX + lt.specVersion()).launchTemplateData(data)
                    .clientToken(token(lt, data))
                    .tagSpecifications(Tags.ec2(ResourceType.LAUNCH_TEMPLATE, ctx.desired().tags(lt.logicalName()))));
        } catch (SdkException e) {
            if (!AwsCalls.hasCode(e, "InvalidLaunchTemplateName.AlreadyExistsException")) {
                throw AwsCalls.classify("ec2:CreateLaunchTemplate", e);
            }
            throw new ProvisioningException("LAUNCH_TEMPLATE_UNTAGGED", "A launch template named " + lt.name()
                    + " exists without Keel's tags; remove it or restore its byoc:* tags.", false);
        }
        ctx.await(ObservedState.LAUNCH_TEMPLATE, "launch template " + lt.name() + " to be visible", null, () -> {
            ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
            return ctx.observed().find(ObservedState.LAUNCH_TEMPLATE, lt.logicalName()).isPresent();
        });
    }

    private static void newDefaultVersion(StepContext ctx, String templateId, RequestLaunchTemplateData data) {
        DesiredState.LaunchTemplate lt = ctx.desired().launchTemplate();
        Ec2Client ec2 = ctx.aws().ec2();
        Long version = AwsCalls.call("ec2:CreateLaunchTemplateVersion", () -> ec2.createLaunchTemplateVersion(b -> b
                .launchTemplateId(templateId).versionDescription(SPEC_PREFIX + lt.specVersion())
                .launchTemplateData(data).clientToken(token(lt, data))).launchTemplateVersion().versionNumber());
        AwsCalls.run("ec2:ModifyLaunchTemplate", () -> ec2.modifyLaunchTemplate(b -> b.launchTemplateId(templateId)
                .defaultVersion(version.toString())));
    }

    /** The same content gets the same token, so a repeated call returns the version it made before. */
    private static String token(DesiredState.LaunchTemplate lt, RequestLaunchTemplateData data) {
        return lt.name() + "-" + lt.specVersion() + "-" + Integer.toHexString((data.securityGroupIds() + data.userData())
                .hashCode());
    }

    private static Optional<LaunchTemplateVersion> defaultVersion(Ec2Client ec2, String templateId) {
        return AwsCalls.call("ec2:DescribeLaunchTemplateVersions", () -> ec2.describeLaunchTemplateVersions(b -> b
                .launchTemplateId(templateId).versions("$Default")).launchTemplateVersions()).stream().findFirst();
    }

    /** Each desired file system's NFS endpoint, in file-system order as the agent expects, as far as AWS has made them. */
    private static List<DesiredState.NfsEndpoint> endpoints(DesiredState desired, ObservedState observed) {
        List<DesiredState.NfsEndpoint> endpoints = new ArrayList<>();
        for (DesiredState.WalFileSystem fs : desired.fileSystems()) {
            String dnsName = observed.find(ObservedState.FSX_SVM, fs.svmLogicalName())
                    .map(r -> r.attribute("nfsDnsName")).orElse(null);
            String junctionPath = observed.find(ObservedState.FSX_VOLUME, fs.volumeLogicalName())
                    .map(r -> r.attribute("junctionPath")).orElse(null);
            if (dnsName != null && junctionPath != null) {
                endpoints.add(new DesiredState.NfsEndpoint(fs.index(), dnsName, junctionPath));
            }
        }
        return endpoints;
    }

    private static boolean sameEndpoints(List<DesiredState.NfsEndpoint> current, String inTemplate) {
        return Json.same(Json.write(current), inTemplate);
    }
}
