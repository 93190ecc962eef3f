package dev.keel.provisioner.aws.resources;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.keel.provisioner.NetworkPathGap;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.ResourceChange.Action;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.aws.AwsCalls;
import dev.keel.provisioner.aws.AwsClients;
import dev.keel.provisioner.aws.DesiredState;
import dev.keel.provisioner.aws.ObservedState;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Route;
import software.amazon.awssdk.services.ec2.model.RouteTable;
import software.amazon.awssdk.services.ec2.model.VpcEndpoint;
import software.amazon.awssdk.services.ec2.model.VpcEndpointType;

/**
 * The paths the brokers' traffic takes out of their subnets. S3 (data, and the WAL when it is S3) must go through an
 * S3 gateway endpoint on the route table of each subnet — the subnet's own, or the VPC's main route table when it has
 * none — or it pays a NAT gateway's per-GB fee. Keel creates that endpoint when the spec allows, or adds the missing
 * route tables to the one it created before in the VPC, which all Keel instances there share, and takes off it the
 * route tables no subnet of theirs uses any more. An instance's delete removes it only when no other Keel instance of
 * the VPC is left (one whose own delete has started is not), also the delete of an instance whose spec left the
 * routing alone (the instance that made the endpoint may have been deleted first). Which other instances there are
 * comes from the control plane's records, not from the account, where one being created leaves no trace until its
 * brokers run; and the steps that change the endpoint decide holding the VPC's lock
 * ({@link dev.keel.provisioner.NetworkLocks}), on the records as they stand then, so an instance whose create starts
 * meanwhile finds the endpoint gone and makes it again. The agent also calls the EC2 API (to find its peers), so each
 * subnet needs a default route or an EC2 interface endpoint with private DNS; without one the instance is refused
 * before anything is created.
 */
public final class S3GatewayEndpoint implements ManagedResource {

    private static final Logger log = LoggerFactory.getLogger(S3GatewayEndpoint.class);

    /** Of Keel's S3 gateway endpoint: whether other Keel instances of its VPC, not deleted, use it too. */
    private static final String SHARED = "shared";
    /** Of Keel's S3 gateway endpoint: the route tables on it that no subnet of the VPC's Keel instances uses. */
    private static final String UNUSED_ROUTE_TABLES = "unusedRouteTables";
    /** Of a subnet's route: the S3 gateway endpoint on its route table, whoever made it. */
    private static final String S3_ENDPOINT = "s3Endpoint";
    /** Of a subnet's route: the target of its route table's default route ({@code 0.0.0.0/0}). */
    private static final String DEFAULT_ROUTE = "defaultRoute";
    /** Of a subnet's route: the services of the VPC's interface endpoints that answer the services' own DNS names. */
    private static final String PRIVATE_APIS = "privateApis";
    private static final Set<String> GONE = Set.of("deleting", "deleted", "failed", "rejected", "expired");

    @Override
    public List<ObservedState.Resource> observe(AwsClients.Customer aws, DesiredState desired) {
        DesiredState.NetworkPaths want = desired.networkPaths();
        if (want.s3GatewayEndpoint() == S3GatewayEndpointMode.NONE) {
            return keelsEndpointOnly(aws.ec2(), desired);
        }
        Ec2Client ec2 = aws.ec2();
        List<RouteTable> tables = AwsCalls.call("ec2:DescribeRouteTables", () -> ec2.describeRouteTablesPaginator(b -> b
                .filters(Tags.filter("vpc-id", want.vpcId()))).routeTables().stream().toList());
        List<VpcEndpoint> endpoints = endpoints(ec2, want);
        List<VpcEndpoint> s3 = endpoints.stream().filter(e -> isS3Gateway(e, want)).toList();
        String privateApis = endpoints.stream().filter(e -> e.vpcEndpointType() == VpcEndpointType.INTERFACE
                        && Boolean.TRUE.equals(e.privateDnsEnabled())).map(VpcEndpoint::serviceName)
                .distinct().sorted().collect(Collectors.joining(","));

        Set<String> used = Stream.concat(want.subnetIds().stream(), want.otherInstancesSubnets().stream())
                .map(subnet -> routeTableOf(subnet, tables)).flatMap(Optional::stream).map(RouteTable::routeTableId)
                .collect(Collectors.toSet());
        List<ObservedState.Resource> found = new ArrayList<>(keels(desired, s3, used::contains));
        for (String subnet : want.subnetIds()) {
            Optional<RouteTable> table = routeTableOf(subnet, tables);
            if (table.isEmpty()) {
                continue;
            }
            String id = table.get().routeTableId();
            Map<String, String> attributes = new LinkedHashMap<>();
            s3.stream().filter(e -> e.routeTableIds().contains(id)).findFirst()
                    .ifPresent(e -> attributes.put(S3_ENDPOINT, e.vpcEndpointId()));
            defaultRoute(table.get()).ifPresent(target -> attributes.put(DEFAULT_ROUTE, target));
            attributes.put(PRIVATE_APIS, privateApis);
            found.add(new ObservedState.Resource(ObservedState.SUBNET_ROUTE, subnet, id, attributes));
        }
        return found;
    }

    @Override
    public List<ResourceChange> diff(DesiredState desired, ObservedState observed) {
        DesiredState.NetworkPaths want = desired.networkPaths();
        if (want.s3GatewayEndpoint() != S3GatewayEndpointMode.CREATE) {
            // Nothing to make: the customer's endpoint is checked when applied, and NONE has no step at all.
            return List.of();
        }
        List<ObservedState.Resource> routes = observed.ofType(ObservedState.SUBNET_ROUTE);
        Optional<ObservedState.Resource> keels = observed.find(ObservedState.S3_GATEWAY_ENDPOINT, want.endpointLogicalName());
        if (routes.isEmpty()) {
            // A spec not yet created: the subnets' routing is read when applied.
            return keels.isPresent() ? List.of() : List.of(new ResourceChange(Action.CREATE,
                    ObservedState.S3_GATEWAY_ENDPOINT, want.endpointLogicalName(), null, "S3 gateway endpoint "
                    + want.s3ServiceName() + " in " + want.vpcId() + " for the route tables of "
                    + String.join(", ", want.subnetIds()) + " that have none"));
        }
        Map<String, List<String>> uncovered = uncovered(routes);
        List<String> unused = keels.map(S3GatewayEndpoint::unused).orElse(List.of());
        if (uncovered.isEmpty() && unused.isEmpty()) {
            return List.of();
        }
        String tables = describe(uncovered);
        if (keels.isEmpty()) {
            return List.of(new ResourceChange(Action.CREATE, ObservedState.S3_GATEWAY_ENDPOINT,
                    want.endpointLogicalName(), null, "S3 gateway endpoint " + want.s3ServiceName() + " in "
                    + want.vpcId() + " on route tables " + tables));
        }
        List<String> what = new ArrayList<>();
        if (!uncovered.isEmpty()) {
            what.add("add route tables " + tables);
        }
        if (!unused.isEmpty()) {
            what.add("remove route tables " + String.join(", ", unused));
        }
        return List.of(new ResourceChange(Action.UPDATE, ObservedState.S3_GATEWAY_ENDPOINT, want.endpointLogicalName(),
                keels.get().id(), String.join("; ", what)));
    }

    @Override
    public void apply(List<ResourceChange> changes, StepContext ctx) {
        DesiredState.NetworkPaths want = ctx.desired().networkPaths();
        List<ObservedState.Resource> routes = ctx.observed().ofType(ObservedState.SUBNET_ROUTE);
        // A create was refused on these already; the routing may have changed since.
        List<NetworkPathGap> gaps = gaps(want, routes);
        refuse(gaps, NetworkPathGap.Path.EC2_API, "NO_PATH_TO_AWS_APIS");
        refuse(gaps, NetworkPathGap.Path.S3_GATEWAY_ENDPOINT, "S3_GATEWAY_ENDPOINT_MISSING");
        Map<String, List<String>> uncovered = uncovered(routes);
        Optional<List<ObservedState.Resource>> answered = Optional.empty();
        for (ResourceChange change : changes) {
            List<String> add = List.copyOf(uncovered.keySet());
            if (change.action() == Action.CREATE) {
                answered = made(want, routes, create(ctx, want, add), add);
            } else if (change.action() == Action.UPDATE) {
                List<String> remove = ctx.observed().find(ObservedState.S3_GATEWAY_ENDPOINT, change.logicalName())
                        .map(S3GatewayEndpoint::unused).orElse(List.of());
                AwsCalls.run("ec2:ModifyVpcEndpoint", () -> ctx.aws().ec2().modifyVpcEndpoint(b -> {
                    b.vpcEndpointId(change.id());
                    if (!add.isEmpty()) {
                        b.addRouteTableIds(add);
                    }
                    if (!remove.isEmpty()) {
                        b.removeRouteTableIds(remove);
                    }
                }));
            }
        }
        if (answered.isPresent()) {
            ctx.observedOwn(answered.get());
            return;
        }
        ctx.await(ObservedState.S3_GATEWAY_ENDPOINT, "the S3 gateway endpoint on every subnet's route table", null, () -> {
            ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
            return want.s3GatewayEndpoint() != S3GatewayEndpointMode.CREATE
                    || uncovered(ctx.observed().ofType(ObservedState.SUBNET_ROUTE)).isEmpty()
                    && ctx.observed().ofType(ObservedState.S3_GATEWAY_ENDPOINT).stream()
                    .allMatch(e -> "available".equals(e.attribute("state")) && unused(e).isEmpty());
        });
    }

    @Override
    public boolean ownedByInstance(ObservedState.Resource observed) {
        return observed.type().equals(ObservedState.S3_GATEWAY_ENDPOINT) && "false".equals(observed.attribute(SHARED));
    }

    @Override
    public void remove(List<ResourceChange> deletes, StepContext ctx) {
        Ec2Client ec2 = ctx.aws().ec2();
        for (ResourceChange change : deletes) {
            var answer = AwsCalls.call("ec2:DeleteVpcEndpoints", () -> ec2.deleteVpcEndpoints(b -> b
                    .vpcEndpointIds(change.id())));
            answer.unsuccessful().stream().filter(u -> u.error() != null
                            && !String.valueOf(u.error().code()).startsWith("InvalidVpcEndpoint"))
                    .findFirst().ifPresent(u -> {
                        throw new ProvisioningException("AWS_ERROR", "ec2:DeleteVpcEndpoints " + change.id()
                                + ": " + u.error().code() + " " + u.error().message(), true);
                    });
        }
        ctx.await(ObservedState.S3_GATEWAY_ENDPOINT, "the S3 gateway endpoint to be gone", null,
                () -> observe(ctx.aws(), ctx.desired()).stream().noneMatch(r -> deletes.stream()
                        .anyMatch(d -> d.id().equals(r.id()))));
        ctx.observedOwn(observe(ctx.aws(), ctx.desired()));
    }

    /**
     * Of a spec that leaves routing alone, only Keel's endpoint, which its delete removes when it is the VPC's last
     * Keel instance (the one that made it may have gone first). Its account may have been onboarded before Keel read
     * VPC endpoints: denied that read, it can see nothing of Keel's, and its delete goes on without it.
     */
    private static List<ObservedState.Resource> keelsEndpointOnly(Ec2Client ec2, DesiredState desired) {
        List<VpcEndpoint> endpoints;
        try {
            endpoints = endpoints(ec2, desired.networkPaths());
        } catch (ProvisioningException e) {
            if (!AwsCalls.ACCESS_DENIED.equals(e.code())) {
                throw e;
            }
            log.warn("instance={} leaves routing alone and its role may not read the VPC endpoints of {}, so Keel's "
                    + "S3 gateway endpoint is not looked for: {}", desired.instanceId(),
                    desired.networkPaths().vpcId(), e.getMessage());
            return List.of();
        }
        // Reading no route table, it takes each one on the endpoint to be used: it changes nothing anyway.
        return keels(desired, endpoints.stream().filter(e -> isS3Gateway(e, desired.networkPaths())).toList(),
                table -> true);
    }

    /** The VPC's endpoints not on their way out, whoever made them. */
    private static List<VpcEndpoint> endpoints(Ec2Client ec2, DesiredState.NetworkPaths want) {
        return AwsCalls.call("ec2:DescribeVpcEndpoints", () -> ec2.describeVpcEndpointsPaginator(
                b -> b.filters(Tags.filter("vpc-id", want.vpcId()))).vpcEndpoints().stream()
                .filter(e -> !GONE.contains(String.valueOf(e.stateAsString()).toLowerCase())).toList());
    }

    private static boolean isS3Gateway(VpcEndpoint e, DesiredState.NetworkPaths want) {
        return e.vpcEndpointType() == VpcEndpointType.GATEWAY && want.s3ServiceName().equals(e.serviceName());
    }

    /**
     * Keel's among the VPC's S3 gateway endpoints {@code s3}, each with whether other Keel instances of the VPC use it
     * (the records name their subnets; every instance has some) and the route tables on it that none of their subnets
     * does ({@code used} says which are).
     */
    private static List<ObservedState.Resource> keels(DesiredState desired, List<VpcEndpoint> s3,
                                                      Predicate<String> used) {
        List<VpcEndpoint> keels = s3.stream().filter(S3GatewayEndpoint::isKeels).toList();
        if (keels.isEmpty()) {
            return List.of();
        }
        boolean shared = !desired.networkPaths().otherInstancesSubnets().isEmpty();
        return keels.stream().map(e -> new ObservedState.Resource(ObservedState.S3_GATEWAY_ENDPOINT,
                desired.networkPaths().endpointLogicalName(), e.vpcEndpointId(), Map.of("state",
                String.valueOf(e.stateAsString()).toLowerCase(), SHARED, Boolean.toString(shared),
                UNUSED_ROUTE_TABLES, e.routeTableIds().stream().filter(used.negate()).sorted()
                        .collect(Collectors.joining(","))))).toList();
    }

    /** The route tables on Keel's endpoint (as observed) that no Keel subnet uses. */
    private static List<String> unused(ObservedState.Resource keels) {
        String tables = keels.attribute(UNUSED_ROUTE_TABLES);
        return tables == null || tables.isEmpty() ? List.of() : List.of(tables.split(","));
    }

    /**
     * What observing again would find right after {@code created}, when its answer says as much: the endpoint
     * available on every route table it was to cover ({@code routeTables}), and so on each of those subnets' routes.
     * AWS answers so for a gateway endpoint, which has no provisioning of its own; any other answer is awaited by
     * observing. Whether other instances use the endpoint is not said here: only a delete needs it, and it observes
     * afresh.
     */
    private static Optional<List<ObservedState.Resource>> made(DesiredState.NetworkPaths want,
                                                               List<ObservedState.Resource> routes, VpcEndpoint created,
                                                               List<String> routeTables) {
        String state = String.valueOf(created.stateAsString()).toLowerCase();
        if (!"available".equals(state) || !created.routeTableIds().containsAll(routeTables)) {
            return Optional.empty();
        }
        List<ObservedState.Resource> found = new ArrayList<>(List.of(new ObservedState.Resource(
                ObservedState.S3_GATEWAY_ENDPOINT, want.endpointLogicalName(), created.vpcEndpointId(),
                Map.of("state", state))));
        for (ObservedState.Resource route : routes) {
            Map<String, String> attributes = new LinkedHashMap<>(route.attributes());
            if (routeTables.contains(route.id())) {
                attributes.put(S3_ENDPOINT, created.vpcEndpointId());
            }
            found.add(new ObservedState.Resource(route.type(), route.logicalName(), route.id(), attributes));
        }
        return Optional.of(found);
    }

    private static VpcEndpoint create(StepContext ctx, DesiredState.NetworkPaths want, List<String> routeTables) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(DesiredState.TAG_MANAGED_BY, DesiredState.MANAGED_BY);
        tags.put(DesiredState.TAG_RESOURCE, want.endpointLogicalName());
        tags.put("Name", "keel-s3-" + want.vpcId());
        try {
            return ctx.aws().ec2().createVpcEndpoint(b -> b.vpcId(want.vpcId()).serviceName(want.s3ServiceName())
                    .vpcEndpointType(VpcEndpointType.GATEWAY).routeTableIds(routeTables).clientToken(want.clientToken())
                    .tagSpecifications(Tags.ec2(ResourceType.VPC_ENDPOINT, tags))).vpcEndpoint();
        } catch (SdkException e) {
            // Another instance of the VPC created its endpoint first, or someone put a route to S3 on one of these
            // tables meanwhile: observe again and add what is still missing.
            if (AwsCalls.hasCode(e, "IdempotentParameterMismatch", "RouteAlreadyExists")) {
                throw new ProvisioningException("S3_GATEWAY_ENDPOINT_RACE", "The VPC's S3 gateway endpoint changed "
                        + "while Keel was creating it; the step will be tried again.", true);
            }
            throw AwsCalls.classify("ec2:CreateVpcEndpoint", e);
        }
    }

    /**
     * What the subnets' route tables ({@code routes}, as observed) lack: a path to every API the agent calls (a
     * default route, or the VPC's interface endpoints with private DNS), and, when the spec requires the customer's
     * S3 gateway endpoint, that endpoint.
     */
    public static List<NetworkPathGap> gaps(DesiredState.NetworkPaths want, List<ObservedState.Resource> routes) {
        List<NetworkPathGap> gaps = new ArrayList<>();
        Map<String, List<String>> cut = new LinkedHashMap<>();
        routes.stream().filter(r -> r.attribute(DEFAULT_ROUTE) == null
                        && !Set.of(r.attribute(PRIVATE_APIS).split(",")).containsAll(want.apiServiceNames()))
                .forEach(r -> cut.computeIfAbsent(r.id(), t -> new ArrayList<>()).add(r.logicalName()));
        cut.forEach((table, subnets) -> gaps.add(new NetworkPathGap(NetworkPathGap.Path.EC2_API, table, subnets,
                "Route table " + table + " of " + String.join(", ", subnets) + " in " + want.vpcId() + " has no "
                        + "default route (to a NAT or internet gateway), and the VPC has no interface endpoint with "
                        + "private DNS for " + String.join(", ", want.apiServiceNames()) + ": the brokers' agent "
                        + "could not find its peers. Add either, then try again.")));
        if (want.s3GatewayEndpoint() == S3GatewayEndpointMode.REQUIRE_EXISTING) {
            uncovered(routes).forEach((table, subnets) -> gaps.add(new NetworkPathGap(
                    NetworkPathGap.Path.S3_GATEWAY_ENDPOINT, table, subnets, "No S3 gateway endpoint ("
                    + want.s3ServiceName() + ") is on route table " + table + " of " + String.join(", ", subnets)
                    + " in " + want.vpcId() + ", and the spec requires an existing one: add one to it, or let Keel "
                    + "create it (network.s3GatewayEndpoint CREATE).")));
        }
        return gaps;
    }

    private static void refuse(List<NetworkPathGap> gaps, NetworkPathGap.Path path, String code) {
        List<String> messages = gaps.stream().filter(g -> g.path() == path).map(NetworkPathGap::message).toList();
        if (!messages.isEmpty()) {
            throw new ProvisioningException(code, String.join(" ", messages), false);
        }
    }

    /** The route tables of {@code routes} no S3 gateway endpoint is on, each with the subnets it serves. */
    private static Map<String, List<String>> uncovered(List<ObservedState.Resource> routes) {
        Map<String, List<String>> tables = new LinkedHashMap<>();
        routes.stream().filter(r -> r.attribute(S3_ENDPOINT) == null)
                .forEach(r -> tables.computeIfAbsent(r.id(), t -> new ArrayList<>()).add(r.logicalName()));
        return tables;
    }

    private static String describe(Map<String, List<String>> tables) {
        return tables.entrySet().stream().map(t -> t.getKey() + " (" + String.join(", ", t.getValue()) + ")")
                .collect(Collectors.joining(", "));
    }

    /** The subnet's own route table, or the VPC's main one, which serves every subnet without its own. */
    private static Optional<RouteTable> routeTableOf(String subnet, List<RouteTable> tables) {
        return tables.stream().filter(t -> t.associations().stream().anyMatch(a -> subnet.equals(a.subnetId())))
                .findFirst()
                .or(() -> tables.stream().filter(t -> t.associations().stream()
                        .anyMatch(a -> Boolean.TRUE.equals(a.main()))).findFirst());
    }

    private static Optional<String> defaultRoute(RouteTable table) {
        return table.routes().stream().filter(r -> "0.0.0.0/0".equals(r.destinationCidrBlock())
                        && !"blackhole".equals(r.stateAsString()))
                .map(S3GatewayEndpoint::target).filter(t -> t != null).findFirst();
    }

    private static String target(Route r) {
        for (String t : new String[]{r.natGatewayId(), r.gatewayId(), r.transitGatewayId(), r.networkInterfaceId(),
                r.vpcPeeringConnectionId(), r.instanceId()}) {
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    private static boolean isKeels(VpcEndpoint e) {
        Map<String, String> tags = Tags.ofEc2(e.tags());
        return DesiredState.MANAGED_BY.equals(tags.get(DesiredState.TAG_MANAGED_BY))
                && DesiredState.S3_GATEWAY_ENDPOINT_NAME.equals(tags.get(DesiredState.TAG_RESOURCE));
    }
}
