package dev.keel.provisioner.aws.resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.VolumeType;

/**
 * The brokers' EBS WAL volumes, one gp3 volume per node in its broker's zone, created before the brokers (which
 * attach them) and deleted after them. It also observes the brokers' root volumes, which go with their instances and
 * so are never changed here, but which the sweep after a delete must see if one were left behind.
 */
public final class WalVolumes implements ManagedResource {

    private static final Set<String> USABLE = Set.of("available", "in-use");

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        UUID instanceId = desired.instanceId();
        return AwsCalls.call("ec2:DescribeVolumes", () -> aws.ec2().describeVolumesPaginator(b -> b
                .filters(Tags.byInstance(instanceId))).volumes().stream().map(v -> {
                    Map<String, String> tags = Tags.ofEc2(v.tags());
                    Map<String, String> attributes = new HashMap<>();
                    attributes.put("state", v.stateAsString());
                    Attributes.put(attributes, "availabilityZone", v.availabilityZone());
                    Attributes.put(attributes, "nodeId", tags.get(DesiredState.TAG_NODE));
                    Attributes.put(attributes, "since", v.createTime());
                    v.attachments().stream()
                            .filter(a -> "attached".equals(a.stateAsString()) || "attaching".equals(a.stateAsString()))
                            .findFirst().ifPresent(a -> attributes.put("attachedTo", a.instanceId()));
                    String logicalName = Tags.logicalName(tags);
                    String type = logicalName.startsWith("wal-volume-") ? ObservedState.EBS_VOLUME
                            : ObservedState.ROOT_VOLUME;
                    return new ObservedState.Resource(type, logicalName, v.volumeId(), attributes);
                }).toList());
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        List<ResourceChange> changes = new ArrayList<>();
        for (DesiredState.WalVolume v : desired.walVolumes()) {
            if (observed.find(ObservedState.EBS_VOLUME, v.logicalName()).isEmpty()) {
                changes.add(new ResourceChange(Action.CREATE, ObservedState.EBS_VOLUME, v.logicalName(), null,
                        v.volumeType() + " " + v.sizeGiB() + " GiB in " + v.availabilityZone() + ", attached to "
                                + DesiredState.brokerName(v.nodeId())));
            }
        }
        changes.addAll(Surplus.of(observed, ObservedState.EBS_VOLUME, desired.walVolumes().stream()
                        .map(DesiredState.WalVolume::logicalName).toList(),
                Comparator.comparing(ObservedState.Resource::logicalName), "WAL volume of a surplus broker"));
        return changes;
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        Ec2Client ec2 = ctx.aws().ec2();
        for (DesiredState.WalVolume wal : ctx.desired().walVolumes()) {
            if (changes.stream().noneMatch(c -> c.logicalName().equals(wal.logicalName()))) {
                continue;
            }
            Map<String, String> tags = ctx.desired().tags(wal.logicalName());
            tags.put(DesiredState.TAG_NODE, Integer.toString(wal.nodeId()));
            AwsCalls.call("ec2:CreateVolume", () -> ec2.createVolume(b -> b.availabilityZone(wal.availabilityZone())
                    .size(wal.sizeGiB()).volumeType(VolumeType.fromValue(wal.volumeType())).encrypted(true)
                    .clientToken(wal.clientToken()).tagSpecifications(Tags.ec2(ResourceType.VOLUME, tags))));
        }
        List<String> wanted = ctx.desired().walVolumes().stream().map(DesiredState.WalVolume::logicalName).toList();
        if (usable(ctx, wanted)) {
            return;
        }
        Instant since = ctx.observed().ofType(ObservedState.EBS_VOLUME).stream().map(StepContext::instant)
                .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
        ctx.await(ObservedState.EBS_VOLUME, "WAL volumes " + wanted + " to be available", since, () -> {
            refresh(ctx);
            return usable(ctx, wanted);
        });
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        Ec2Client ec2 = ctx.aws().ec2();
        for (ResourceChange change : deletes) {
            String attachedTo = ctx.observed().find(change.type(), change.logicalName())
                    .map(r -> r.attribute("attachedTo")).orElse(null);
            if (attachedTo != null) {
                try {
                    ec2.detachVolume(b -> b.volumeId(change.id()).force(true));
                } catch (SdkException e) {
                    if (!AwsCalls.hasCode(e, "IncorrectState", "InvalidAttachment.NotFound", "InvalidVolume.NotFound")) {
                        throw AwsCalls.classify("ec2:DetachVolume", e);
                    }
                }
            }
            ctx.await(ObservedState.EBS_VOLUME, "volume " + change.id() + " to be deleted", null, () -> {
                try {
                    ec2.deleteVolume(b -> b.volumeId(change.id()));
                    return true;
                } catch (SdkException e) {
                    if (AwsCalls.hasCode(e, "InvalidVolume.NotFound")) {
                        return true;
                    }
                    if (AwsCalls.hasCode(e, "VolumeInUse", "IncorrectState")) {
                        return false;
                    }
                    throw AwsCalls.classify("ec2:DeleteVolume", e);
                }
            });
        }
        Set<String> ids = deletes.stream().map(ResourceChange::id).collect(Collectors.toSet());
        ctx.await(ObservedState.EBS_VOLUME, "volumes " + ids + " to be gone", null, () -> {
            refresh(ctx);
            return ctx.observed().resources().stream().noneMatch(r -> ids.contains(r.id()));
        });
    }

    private void refresh(StepContext ctx) {
        ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
    }

    private static boolean usable(StepContext ctx, List<String> logicalNames) {
        return logicalNames.stream().allMatch(name -> ctx.observed().find(ObservedState.EBS_VOLUME, name)
                .filter(v -> USABLE.contains(v.attribute("state"))).isPresent());
    }
}
