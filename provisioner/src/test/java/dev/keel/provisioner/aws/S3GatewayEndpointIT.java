package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ChangeKind;
import dev.keel.provisioner.Inventory;
import dev.keel.provisioner.NetworkLocks;
import dev.keel.provisioner.NetworkPathGap;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import dev.keel.provisioner.ResourceChange;
import dev.keel.provisioner.S3GatewayEndpointMode;
import dev.keel.provisioner.WalType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.VpcEndpoint;
import software.amazon.awssdk.services.ec2.model.VpcEndpointType;

/**
 * The S3 gateway endpoint and the paths out of the brokers' subnets, against LocalStack's VPC endpoints and route
 * tables. Each test has a VPC of its own whose subnets use its main route table, as a new VPC's do. Which other
 * instances a VPC has is what the control plane's records say: a target names their subnets ({@link #among}).
 */
class S3GatewayEndpointIT {

    static final String S3 = "com.amazonaws." + LocalStackAccount.REGION + ".s3";

    @AutoClose
    final AwsProvisioningDriver driver = new AwsProvisioningDriver(new LocalStackAccount().settings());

    @Test
    void createdOnTheMainRouteTableWithTheInstanceAndDeletedWithIt() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.CREATE);
        String main = mainRouteTable(aws);

        assertThat(plan(ChangeKind.CREATE, t)).first().isEqualTo("+ s3-gateway-endpoint s3-gateway-endpoint: "
                + "S3 gateway endpoint " + S3 + " in " + aws.vpcId + " on route tables " + main + " ("
                + aws.zones.stream().map(ProvisioningTarget.Zone::subnetId).collect(Collectors.joining(", ")) + ")");
        t = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE, t);

        VpcEndpoint endpoint = s3Endpoints(aws).getFirst();
        assertThat(s3Endpoints(aws)).hasSize(1);
        assertThat(endpoint.routeTableIds()).containsExactly(main);
        assertThat(endpoint.tags()).contains(Tag.builder().key("byoc:managed-by").value("keel").build());
        assertThat(t.observed().resources()).contains(new Inventory.CloudResource("s3-gateway-endpoint",
                endpoint.vpcEndpointId()));
        assertThat(driver.plan(ChangeKind.REPAIR, t, true)).isEmpty();

        assertThat(plan(ChangeKind.DELETE, t)).last().isEqualTo("- s3-gateway-endpoint s3-gateway-endpoint ("
                + endpoint.vpcEndpointId() + "): the instance is being deleted");
        AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, t);
        assertThat(s3Endpoints(aws)).isEmpty();
        assertThat(driver.sweep(t)).isEmpty();
    }

    @Test
    void aNewEndpointIsTakenFromCreateVpcEndpointsAnswerWithoutReadingTheVpcAgain() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.CREATE);
        CallRecorder calls = new CallRecorder();
        try (AwsProvisioningDriver recorded = new AwsProvisioningDriver(aws.settings()
                .withInterceptors(List.of(calls)))) {
            recorded.networkPathGaps(t);
            calls.take();
            Inventory applied = recorded.apply("prepare-network-paths", t);

            assertThat(calls.take()).containsExactly("DescribeRouteTables", "DescribeVpcEndpoints", "CreateVpcEndpoint");
            String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();
            assertThat(applied.resources()).containsExactly(new Inventory.CloudResource("s3-gateway-endpoint", endpoint));
            assertThat(endpointPlan(t.withObserved(applied))).as("what a fresh observation finds").isEmpty();
        }
    }

    @Test
    void anotherInstanceOfTheVpcKeepsTheSharedEndpointUntilItGoesToo() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget first = target(aws, S3GatewayEndpointMode.CREATE);
        ProvisioningTarget second = target(aws, S3GatewayEndpointMode.CREATE);
        for (ProvisioningTarget t : List.of(among(first, second), among(second, first))) {
            driver.applyStep("prepare-network-paths", t);
            driver.applyStep("create-security-group", t);
        }
        assertThat(s3Endpoints(aws)).as("the second instance found the first one's endpoint").hasSize(1);
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();

        driver.applyStep("delete-security-group", first);
        assertThat(plan(ChangeKind.DELETE, among(first, second))).noneMatch(c -> c.contains("s3-gateway-endpoint"));
        assertThat(driver.applyStep("delete-s3-gateway-endpoint", among(first, second)).changes()).isEmpty();
        assertThat(s3Endpoints(aws)).extracting(VpcEndpoint::vpcEndpointId).containsExactly(endpoint);
        assertThat(driver.sweep(among(first, second))).as("shared, so not the first instance's to leave behind")
                .isEmpty();

        driver.applyStep("delete-security-group", second);
        assertThat(driver.applyStep("delete-s3-gateway-endpoint", second).changes()).extracting(ResourceChange::id)
                .containsExactly(endpoint);
        assertThat(s3Endpoints(aws)).isEmpty();
    }

    /**
     * An instance being created has nothing in the account yet but the endpoint it found (no security group, no
     * broker): the control plane's records, not the account, tell another instance's delete that it is there.
     */
    @Test
    void aCreateInProgressKeepsTheSharedEndpointWhileAnotherInstanceOfTheVpcIsDeleted() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget leaving = target(aws, S3GatewayEndpointMode.CREATE);
        driver.applyStep("prepare-network-paths", leaving);
        driver.applyStep("create-security-group", leaving);
        ProvisioningTarget creating = target(aws, S3GatewayEndpointMode.CREATE);
        driver.applyStep("prepare-network-paths", among(creating, leaving));
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();

        driver.applyStep("delete-security-group", leaving);
        assertThat(driver.applyStep("delete-s3-gateway-endpoint", among(leaving, creating)).changes()).isEmpty();
        assertThat(s3Endpoints(aws)).as("the create goes on with it").extracting(VpcEndpoint::vpcEndpointId)
                .containsExactly(endpoint);

        assertThat(driver.applyStep("delete-s3-gateway-endpoint", creating).changes()).as("once the VPC's last")
                .extracting(ResourceChange::id).containsExactly(endpoint);
    }

    /**
     * The steps that change the endpoint, a create's and a delete's, hold the VPC's lock from their first look at the
     * VPC on; the instance's own resources are not the VPC's and take none.
     */
    @Test
    void theStepsOnTheVpcsEndpointLookAtTheVpcOnlyHoldingItsLock() throws Exception {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ReentrantLock vpc = new ReentrantLock();
        Set<String> refused = ConcurrentHashMap.newKeySet();
        NetworkLocks locks = new NetworkLocks() {
            @Override
            public <T> Optional<T> whenFree(ProvisioningTarget target, Function<ProvisioningTarget, T> step) {
                if (!vpc.tryLock()) {
                    refused.add(Thread.currentThread().getName());
                    return Optional.empty();
                }
                try {
                    return Optional.of(step.apply(target));
                } finally {
                    vpc.unlock();
                }
            }
        };
        CallRecorder calls = new CallRecorder();
        ProvisioningTarget creating = target(aws, S3GatewayEndpointMode.CREATE);
        ProvisioningTarget deleting = target(aws, S3GatewayEndpointMode.CREATE);
        try (AwsProvisioningDriver locking = new AwsProvisioningDriver(aws.settings().withInterceptors(List.of(calls)),
                locks); ExecutorService steps = Executors.newFixedThreadPool(2)) {
            vpc.lock();
            Future<?> create = steps.submit(() -> locking.applyStep("prepare-network-paths",
                    among(creating, deleting)));
            Future<?> delete = steps.submit(() -> locking.applyStep("delete-s3-gateway-endpoint",
                    among(deleting, creating)));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (refused.size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(refused).as("both found the VPC's lock held").hasSize(2);
            assertThat(calls.take()).as("neither has looked at the VPC").isEmpty();
            locking.applyStep("create-security-group", creating);
            assertThat(calls.take()).as("the instance's own security group").contains("CreateSecurityGroup");
            vpc.unlock();
            create.get();
            delete.get();
        }
        assertThat(s3Endpoints(aws)).as("made by the create, in whichever turn it came, kept by the delete").hasSize(1);
    }

    @Test
    void theVpcsLastInstanceTakesKeelsEndpointWithItEvenWhenItsSpecLeftRoutingAlone() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget creating = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE,
                target(aws, S3GatewayEndpointMode.CREATE));
        ProvisioningTarget leaving = AwsProvisioningDriverIT.run(driver, ChangeKind.CREATE,
                target(aws, S3GatewayEndpointMode.NONE));
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();

        AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, among(creating, leaving));
        assertThat(s3Endpoints(aws)).as("the instance left in the VPC still uses it")
                .extracting(VpcEndpoint::vpcEndpointId).containsExactly(endpoint);
        assertThat(driver.sweep(among(creating, leaving))).isEmpty();

        assertThat(plan(ChangeKind.DELETE, leaving)).last().isEqualTo("- s3-gateway-endpoint s3-gateway-endpoint ("
                + endpoint + "): the instance is being deleted");
        AwsProvisioningDriverIT.run(driver, ChangeKind.DELETE, leaving);
        assertThat(s3Endpoints(aws)).isEmpty();
        assertThat(driver.sweep(leaving)).isEmpty();
    }

    @Test
    void aSubnetWithItsOwnRouteTableIsAddedToKeelsEndpoint() {
        LocalStackAccount aws = new LocalStackAccount();
        String gateway = InternetRoute.addTo(aws.ec2, aws.vpcId);
        ProvisioningTarget first = target(aws, S3GatewayEndpointMode.CREATE);
        driver.applyStep("prepare-network-paths", first);
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();

        String own = aws.ec2.createRouteTable(b -> b.vpcId(aws.vpcId)).routeTable().routeTableId();
        aws.ec2.createRoute(b -> b.routeTableId(own).destinationCidrBlock("0.0.0.0/0").gatewayId(gateway));
        String subnet = aws.zones.get(1).subnetId();
        aws.ec2.associateRouteTable(b -> b.routeTableId(own).subnetId(subnet));

        assertThat(endpointPlan(first)).containsExactly("~ s3-gateway-endpoint s3-gateway-endpoint ("
                + endpoint + "): add route tables " + own + " (" + subnet + ")");
        driver.applyStep("prepare-network-paths", first);
        assertThat(s3Endpoints(aws)).singleElement().satisfies(e -> assertThat(e.routeTableIds())
                .containsExactlyInAnyOrder(mainRouteTable(aws), own));
        assertThat(endpointPlan(first)).isEmpty();
    }

    /**
     * A route table on Keel's endpoint that no Keel subnet uses any more is taken off it, never off the customer's
     * endpoint.
     */
    @Test
    void aRouteTableNoKeelSubnetUsesAnyMoreLeavesKeelsEndpointButNotTheCustomers() {
        LocalStackAccount aws = new LocalStackAccount();
        String gateway = InternetRoute.addTo(aws.ec2, aws.vpcId);
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.CREATE);
        String own = aws.ec2.createRouteTable(b -> b.vpcId(aws.vpcId)).routeTable().routeTableId();
        aws.ec2.createRoute(b -> b.routeTableId(own).destinationCidrBlock("0.0.0.0/0").gatewayId(gateway));
        String association = aws.ec2.associateRouteTable(b -> b.routeTableId(own).subnetId(aws.zones.get(1).subnetId()))
                .associationId();
        driver.applyStep("prepare-network-paths", t);
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();
        String spare = aws.ec2.createRouteTable(b -> b.vpcId(aws.vpcId)).routeTable().routeTableId();
        String customers = aws.ec2.createVpcEndpoint(b -> b.vpcId(aws.vpcId).serviceName(S3)
                .vpcEndpointType(VpcEndpointType.GATEWAY).routeTableIds(spare)).vpcEndpoint().vpcEndpointId();

        // The subnet goes back to the main route table: nothing of Keel's is routed by its own one any more.
        aws.ec2.disassociateRouteTable(b -> b.associationId(association));

        assertThat(endpointPlan(t)).containsExactly("~ s3-gateway-endpoint s3-gateway-endpoint (" + endpoint
                + "): remove route tables " + own);
        driver.applyStep("prepare-network-paths", t);
        assertThat(s3Endpoints(aws)).filteredOn(e -> e.vpcEndpointId().equals(endpoint)).singleElement()
                .satisfies(e -> assertThat(e.routeTableIds()).containsExactly(mainRouteTable(aws)));
        assertThat(s3Endpoints(aws)).filteredOn(e -> e.vpcEndpointId().equals(customers)).singleElement()
                .satisfies(e -> assertThat(e.routeTableIds()).as("the customer's endpoint is never changed")
                        .containsExactly(spare));
        assertThat(endpointPlan(t)).isEmpty();
    }

    /**
     * The other instances' subnets come from the control plane's records, as an instance being created has nothing in
     * the account yet: a route table only such a subnet uses stays on Keel's endpoint.
     */
    @Test
    void aRouteTableAnotherInstancesSubnetUsesStaysOnKeelsEndpoint() {
        LocalStackAccount aws = new LocalStackAccount();
        String gateway = InternetRoute.addTo(aws.ec2, aws.vpcId);
        String own = aws.ec2.createRouteTable(b -> b.vpcId(aws.vpcId)).routeTable().routeTableId();
        aws.ec2.createRoute(b -> b.routeTableId(own).destinationCidrBlock("0.0.0.0/0").gatewayId(gateway));
        String moved = aws.zones.get(1).subnetId();
        String association = aws.ec2.associateRouteTable(b -> b.routeTableId(own).subnetId(moved)).associationId();
        String others = aws.zones.get(2).subnetId();
        aws.ec2.associateRouteTable(b -> b.routeTableId(own).subnetId(others));
        // The instance is placed in the first two subnets; another one being created will have brokers in the third.
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.CREATE);
        t = new ProvisioningTarget(t.instanceId(), t.instanceName(), t.region(), t.account(), t.vpcId(),
                t.zones().subList(0, 2), t.walType(), t.aku(), null, null, t.instanceType(), t.brokerCount(),
                t.brokerVersion(), t.observed(), null, null, t.s3GatewayEndpoint(), Set.of(others));
        driver.applyStep("prepare-network-paths", t);
        String endpoint = s3Endpoints(aws).getFirst().vpcEndpointId();

        aws.ec2.disassociateRouteTable(b -> b.associationId(association));

        assertThat(endpointPlan(t)).isEmpty();
        driver.applyStep("prepare-network-paths", t);
        assertThat(s3Endpoints(aws)).singleElement().satisfies(e -> assertThat(e.routeTableIds())
                .containsExactlyInAnyOrder(mainRouteTable(aws), own));

        ProvisioningTarget alone = t.withOtherInstancesSubnets(Set.of());
        assertThat(endpointPlan(alone)).as("once no instance has that subnet").containsExactly(
                "~ s3-gateway-endpoint s3-gateway-endpoint (" + endpoint + "): remove route tables " + own);
    }

    @Test
    void requiringAnExistingEndpointRefusesWithoutOneAndUsesTheCustomersWithoutTouchingIt() {
        LocalStackAccount aws = withInternetRoute(new LocalStackAccount());
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.REQUIRE_EXISTING);

        assertThat(plan(ChangeKind.CREATE, t)).noneMatch(c -> c.contains("s3-gateway-endpoint"));
        assertThat(driver.networkPathGaps(t)).as("what a create is refused on").singleElement().satisfies(gap -> {
            assertThat(gap.path()).isEqualTo(NetworkPathGap.Path.S3_GATEWAY_ENDPOINT);
            assertThat(gap.routeTableId()).isEqualTo(mainRouteTable(aws));
            assertThat(gap.subnetIds()).containsExactlyElementsOf(aws.zones.stream()
                    .map(ProvisioningTarget.Zone::subnetId).toList());
        });
        assertThatThrownBy(() -> driver.applyStep("prepare-network-paths", t)).isInstanceOfSatisfying(
                ProvisioningException.class, e -> {
                    assertThat(e.code()).isEqualTo("S3_GATEWAY_ENDPOINT_MISSING");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains(mainRouteTable(aws), aws.zones.get(2).subnetId());
                });
        assertThat(s3Endpoints(aws)).isEmpty();

        String customers = aws.ec2.createVpcEndpoint(b -> b.vpcId(aws.vpcId).serviceName(S3)
                .vpcEndpointType(VpcEndpointType.GATEWAY).routeTableIds(mainRouteTable(aws))).vpcEndpoint().vpcEndpointId();
        assertThat(driver.networkPathGaps(t)).isEmpty();
        driver.applyStep("prepare-network-paths", t);
        assertThat(driver.applyStep("delete-s3-gateway-endpoint", t).changes()).isEmpty();
        assertThat(s3Endpoints(aws)).extracting(VpcEndpoint::vpcEndpointId).containsExactly(customers);
        assertThat(driver.sweep(t)).isEmpty();
    }

    @Test
    void subnetsThatCannotReachTheEc2ApiAreRefusedBeforeAnythingIsCreated() {
        LocalStackAccount aws = new LocalStackAccount();
        ProvisioningTarget t = target(aws, S3GatewayEndpointMode.CREATE);

        assertThat(driver.networkPathGaps(t)).as("what a create is refused on").singleElement().satisfies(gap -> {
            assertThat(gap.path()).isEqualTo(NetworkPathGap.Path.EC2_API);
            assertThat(gap.routeTableId()).isEqualTo(mainRouteTable(aws));
            assertThat(gap.message()).contains("com.amazonaws.us-east-1.ec2");
        });
        assertThat(driver.networkPathGaps(t.withS3GatewayEndpoint(S3GatewayEndpointMode.NONE)))
                .as("a spec that leaves routing alone is not checked").isEmpty();
        assertThatThrownBy(() -> driver.applyStep("prepare-network-paths", t)).isInstanceOfSatisfying(
                ProvisioningException.class, e -> {
                    assertThat(e.code()).isEqualTo("NO_PATH_TO_AWS_APIS");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains(aws.zones.get(0).subnetId(), "com.amazonaws.us-east-1.ec2");
                });
        assertThat(s3Endpoints(aws)).isEmpty();

        // An EC2 interface endpoint answering the API's own name is a path as good as a NAT gateway.
        aws.ec2.createVpcEndpoint(b -> b.vpcId(aws.vpcId).serviceName("com.amazonaws.us-east-1.ec2")
                .vpcEndpointType(VpcEndpointType.INTERFACE).subnetIds(aws.zones.get(0).subnetId())
                .privateDnsEnabled(true));
        assertThat(driver.networkPathGaps(t)).isEmpty();
        driver.applyStep("prepare-network-paths", t);
        assertThat(s3Endpoints(aws)).hasSize(1);
    }

    private List<String> plan(ChangeKind kind, ProvisioningTarget t) {
        return driver.plan(kind, t, true).stream().map(ResourceChange::toString).toList();
    }

    /** A repair's plan for the endpoint alone: only the network paths' step of these instances has run. */
    private List<String> endpointPlan(ProvisioningTarget t) {
        return plan(ChangeKind.REPAIR, t).stream().filter(c -> c.contains(" s3-gateway-endpoint ")).toList();
    }

    private static ProvisioningTarget target(LocalStackAccount aws, S3GatewayEndpointMode mode) {
        return new ProvisioningTarget(UUID.randomUUID(), "paths", LocalStackAccount.REGION, aws.account, aws.vpcId,
                aws.zones, WalType.S3, 3, null, null, "t3.micro", 3, "4.1.0", Inventory.EMPTY, null)
                .withS3GatewayEndpoint(mode);
    }

    /** {@code t} as the control plane's records have it: in a VPC where {@code others} are, not deleted. */
    private static ProvisioningTarget among(ProvisioningTarget t, ProvisioningTarget... others) {
        return t.withOtherInstancesSubnets(Arrays.stream(others).flatMap(o -> o.zones().stream())
                .map(ProvisioningTarget.Zone::subnetId).collect(Collectors.toSet()));
    }

    /** The VPC's S3 gateway endpoints, as the customer would list them. */
    private static List<VpcEndpoint> s3Endpoints(LocalStackAccount aws) {
        return aws.ec2.describeVpcEndpoints(b -> b.filters(f -> f.name("vpc-id").values(aws.vpcId))).vpcEndpoints()
                .stream().filter(e -> S3.equals(e.serviceName()) && !Map.of("deleted", 1, "deleting", 1)
                        .containsKey(e.stateAsString().toLowerCase())).toList();
    }

    private static String mainRouteTable(LocalStackAccount aws) {
        return InternetRoute.mainRouteTable(aws.ec2, aws.vpcId);
    }

    /** The VPC with an internet gateway as its main route table's default route: how the brokers reach the EC2 API. */
    private static LocalStackAccount withInternetRoute(LocalStackAccount aws) {
        InternetRoute.addTo(aws.ec2, aws.vpcId);
        return aws;
    }
}
