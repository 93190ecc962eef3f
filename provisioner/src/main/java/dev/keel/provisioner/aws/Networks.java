package dev.keel.provisioner.aws;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.keel.provisioner.AccountNetwork;
import software.amazon.awssdk.services.ec2.model.Subnet;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.Vpc;

/** The customer's VPCs and subnets in one region, named by their {@code Name} tags, in a stable order. */
final class Networks {

    private Networks() {
    }

    static List<AccountNetwork> list(AwsClients.Customer aws) {
        List<Vpc> vpcs = AwsCalls.call("ec2:DescribeVpcs", () -> aws.ec2().describeVpcsPaginator(b -> { })
                .vpcs().stream().toList());
        Map<String, List<Subnet>> subnets = AwsCalls.call("ec2:DescribeSubnets", () -> aws.ec2()
                .describeSubnetsPaginator(b -> { }).subnets().stream()
                .collect(Collectors.groupingBy(Subnet::vpcId)));
        return vpcs.stream()
                .map(v -> new AccountNetwork(v.vpcId(), name(v.tags()), v.cidrBlock(), Boolean.TRUE.equals(v.isDefault()),
                        subnets.getOrDefault(v.vpcId(), List.of()).stream()
                                .sorted(Comparator.comparing(Subnet::availabilityZone).thenComparing(Subnet::subnetId))
                                .map(s -> new AccountNetwork.Subnet(s.subnetId(), s.availabilityZone(), s.cidrBlock(),
                                        name(s.tags())))
                                .toList()))
                .sorted(Comparator.comparing((AccountNetwork n) -> n.isDefault()).thenComparing(AccountNetwork::vpcId))
                .toList();
    }

    private static String name(List<Tag> tags) {
        return tags == null ? null : tags.stream().filter(t -> "Name".equals(t.key())).map(Tag::value).findFirst()
                .orElse(null);
    }
}
