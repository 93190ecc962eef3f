package dev.keel.provisioner.aws;

/**
 * The permissions boundary every broker role carries: a managed policy the onboarding template creates
 * beside the control-plane role, named after it ({@code <RoleName>-broker-boundary} under the /keel/
 * path), so one account can hold several control-plane roles, each with its own boundary. The role's
 * policy lets it create or change broker roles only with this boundary ({@code iam:PermissionsBoundary}).
 */
final class BrokerBoundary {

    static final String SUFFIX = "-broker-boundary";

    private BrokerBoundary() {
    }

    /** The boundary's ARN, from the ARN of the control-plane role Keel assumes in the account. */
    static String arn(String controlPlaneRoleArn) {
        String[] parts = controlPlaneRoleArn.split(":", 6);
        String roleName = parts[5].substring(parts[5].lastIndexOf('/') + 1);
        return "arn:" + parts[1] + ":iam::" + parts[4] + ":policy" + DesiredState.IAM_PATH + roleName + SUFFIX;
    }
}
