package dev.keel.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.keel.provisioner.ProvisioningException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

class AwsCallsTest {

    static AwsServiceException error(int status, String code, String message) {
        return AwsServiceException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).build();
    }

    @Test
    void deniedNamesTheActionFromTheMessage() {
        ProvisioningException e = AwsCalls.classify("iam:CreateRole", error(403, "AccessDenied",
                "User: arn:aws:sts::1:assumed-role/keel/s is not authorized to perform: iam:PutRolePolicy on resource: role x"));
        assertThat(e.retryable()).isFalse();
        assertThat(e.code()).isEqualTo("AWS_ACCESS_DENIED");
        assertThat(e.getMessage()).contains("lacks iam:PutRolePolicy");
    }

    @Test
    void deniedWithoutActionInTheMessageNamesTheCalledAction() {
        ProvisioningException e = AwsCalls.classify("ec2:RunInstances", error(403, "UnauthorizedOperation",
                "You are not authorized to perform this operation. Encoded authorization failure message: abc"));
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("lacks ec2:RunInstances");
    }

    @Test
    void throttling5xxIoAndEventualConsistencyAreRetryable() {
        assertThat(AwsCalls.classify("ec2:RunInstances", error(503, "RequestLimitExceeded", "slow")).retryable()).isTrue();
        assertThat(AwsCalls.classify("s3:PutObject", error(500, "InternalError", "x")).retryable()).isTrue();
        assertThat(AwsCalls.classify("iam:GetRole", error(400, "Throttling", "Rate exceeded")).retryable()).isTrue();
        assertThat(AwsCalls.classify("ec2:DeleteSecurityGroup", error(400, "DependencyViolation", "x")).retryable())
                .isTrue();
        assertThat(AwsCalls.classify("ec2:RunInstances", error(400, "InvalidParameterValue",
                "Value (keel-x) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name"))
                .retryable()).isTrue();
        assertThat(AwsCalls.classify("s3:ListBucket", SdkClientException.create("connection reset")).retryable())
                .isTrue();
    }

    @Test
    void otherErrorsArePermanentAndNamed() {
        ProvisioningException e = AwsCalls.classify("ec2:RunInstances", error(400, "InvalidAMIID.NotFound", "no ami"));
        assertThat(e.retryable()).isFalse();
        assertThat(e.code()).isEqualTo("AWS_InvalidAMIID.NotFound");
        assertThat(e.getMessage()).contains("ec2:RunInstances");
    }
}
