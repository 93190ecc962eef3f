package dev.keel.provisioner.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceStatusRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceStatusResponse;
import software.amazon.awssdk.services.ec2.model.InstanceStatus;
import software.amazon.awssdk.services.ec2.model.SummaryStatus;

/**
 * A test fixture: an SDK interceptor that makes EC2's answer to DescribeInstanceStatus report the machines in
 * {@link #impaired()} as failing their instance status checks, which LocalStack's machines never do. Everything else
 * of the answer is LocalStack's.
 */
final class ImpairedStatuses implements ExecutionInterceptor {

    private final Set<String> impaired = ConcurrentHashMap.newKeySet();

    Set<String> impaired() {
        return impaired;
    }

    @Override
    public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
        if (!(context.response() instanceof DescribeInstanceStatusResponse response)
                || !(context.request() instanceof DescribeInstanceStatusRequest request)) {
            return context.response();
        }
        List<InstanceStatus> statuses = new ArrayList<>();
        for (InstanceStatus status : response.instanceStatuses()) {
            statuses.add(impaired.contains(status.instanceId()) ? impaired(status.instanceId()) : status);
        }
        request.instanceIds().stream().filter(impaired::contains)
                .filter(id -> statuses.stream().noneMatch(s -> s.instanceId().equals(id)))
                .forEach(id -> statuses.add(impaired(id)));
        return response.toBuilder().instanceStatuses(statuses).build();
    }

    private static InstanceStatus impaired(String id) {
        return InstanceStatus.builder().instanceId(id).instanceState(s -> s.name("running"))
                .instanceStatus(s -> s.status(SummaryStatus.IMPAIRED)).systemStatus(s -> s.status(SummaryStatus.OK))
                .build();
    }
}
