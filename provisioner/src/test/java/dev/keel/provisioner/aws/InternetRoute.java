package dev.keel.provisioner.aws;

import software.amazon.awssdk.services.ec2.Ec2Client;

/**
 * What a customer's VPC has in real life and a new LocalStack VPC lacks: an internet gateway as the default route of
 * its main route table, which serves every subnet without one of its own. Brokers need it (or an EC2 interface
 * endpoint) to reach the EC2 API, and Keel refuses subnets without either.
 */
public final class InternetRoute {

    private InternetRoute() {
    }

    /** Adds the gateway and the route, or reuses the VPC's gateway; returns the gateway's id. */
    public static String addTo(Ec2Client ec2, String vpcId) {
        String gateway = ec2.describeInternetGateways(b -> b.filters(f -> f.name("attachment.vpc-id").values(vpcId)))
                .internetGateways().stream().findFirst().map(g -> g.internetGatewayId()).orElseGet(() -> {
                    String id = ec2.createInternetGateway(b -> { }).internetGateway().internetGatewayId();
                    ec2.attachInternetGateway(b -> b.internetGatewayId(id).vpcId(vpcId));
                    return id;
                });
        ec2.createRoute(b -> b.routeTableId(mainRouteTable(ec2, vpcId)).destinationCidrBlock("0.0.0.0/0")
                .gatewayId(gateway));
        return gateway;
    }

    public static String mainRouteTable(Ec2Client ec2, String vpcId) {
        return ec2.describeRouteTables(b -> b.filters(f -> f.name("vpc-id").values(vpcId),
                f -> f.name("association.main").values("true"))).routeTables().getFirst().routeTableId();
    }
}
