package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What exists in the customer's account for one instance, found by tags and deterministic names. */
public record ObservedState(List<Resource> resources) {

    public static final String S3_BUCKET = "s3-bucket";
    public static final String IAM_ROLE = "iam-role";
    public static final String IAM_INSTANCE_PROFILE = "iam-instance-profile";
    public static final String SECURITY_GROUP = "security-group";
    public static final String LAUNCH_TEMPLATE = "launch-template";
    public static final String EC2_INSTANCE = "ec2-instance";
    public static final String EBS_VOLUME = "ebs-volume";
    /** A broker's root volume: it goes with its instance, but a sweep must still see one left behind. */
    public static final String ROOT_VOLUME = "ebs-root-volume";
    public static final String FSX_FILE_SYSTEM = "fsx-file-system";
    public static final String FSX_SVM = "fsx-svm";
    public static final String FSX_VOLUME = "fsx-volume";
    /** The S3 gateway endpoint Keel created in the instance's VPC, which every Keel instance there may share. */
    public static final String S3_GATEWAY_ENDPOINT = "s3-gateway-endpoint";
    /**
     * How one of the instance's subnets reaches out (named by its subnet id; its id is the route table's): the
     * customer's, read only to check that S3 and the APIs the agent calls are reachable without a NAT gateway's fee.
     */
    public static final String SUBNET_ROUTE = "subnet-route";

    public static final ObservedState NOTHING = new ObservedState(List.of());

    /**
     * One resource. {@code attributes} hold what planning compares, e.g. {@code state},
     * {@code availabilityZone}, {@code privateIp}, {@code nodeId}, {@code specVersion},
     * {@code throughputMBps}, {@code attachedTo}, and {@code since}: when AWS says its current
     * lifecycle began (creation, launch), which waits are anchored on.
     */
    public record Resource(String type, String logicalName, String id, Map<String, String> attributes) {
        public String attribute(String name) {
            return attributes.get(name);
        }

        /** The node id a broker or its WAL volume is tagged with, or -1 for one whose tag is gone. */
        public int nodeId() {
            String node = attributes.get("nodeId");
            return node == null ? -1 : Integer.parseInt(node);
        }
    }

    public ObservedState {
        resources = List.copyOf(resources);
    }

    public Optional<Resource> find(String type, String logicalName) {
        return resources.stream().filter(r -> r.type().equals(type) && r.logicalName().equals(logicalName))
                .findFirst();
    }

    /** The id of the resource of {@code type} named {@code logicalName}, when it was seen. */
    public Optional<String> idOf(String type, String logicalName) {
        return find(type, logicalName).map(Resource::id);
    }

    public List<Resource> ofType(String type) {
        return resources.stream().filter(r -> r.type().equals(type)).toList();
    }

    public boolean isEmpty() {
        return resources.isEmpty();
    }

    /** This state with whatever it held of {@code types} replaced by {@code fresh}. */
    public ObservedState replacing(Collection<String> types, List<Resource> fresh) {
        List<Resource> merged = new ArrayList<>(resources.stream().filter(r -> !types.contains(r.type())).toList());
        merged.addAll(fresh);
        return new ObservedState(merged);
    }
}
