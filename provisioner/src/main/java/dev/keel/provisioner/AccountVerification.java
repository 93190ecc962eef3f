package dev.keel.provisioner;

import java.util.List;

/**
 * Whether the control plane can work in a customer account: the role could be assumed with the
 * external id and allows every action the provisioner calls. {@code missingActions} lists what it
 * does not allow; {@code message} says why nothing could be checked (the role cannot be assumed or
 * does not exist), or is null.
 */
public record AccountVerification(List<String> missingActions, String message) {

    public AccountVerification {
        missingActions = List.copyOf(missingActions);
    }

    public static AccountVerification allowed() {
        return new AccountVerification(List.of(), null);
    }

    public static AccountVerification missing(List<String> actions) {
        return new AccountVerification(actions, "The role does not allow " + actions.size() + " action(s) Keel needs: "
                + String.join(", ", actions) + ". Update the role's policy (the current onboarding template has them) "
                + "and verify again.");
    }

    /**
     * A role Keel cannot reach: it does not exist, or its trust policy does not let Keel's account assume it with
     * the organization's external id, or another organization registered it. AWS answers the first two alike, and
     * so does Keel all three: a registration must not tell who else uses a role.
     */
    public static AccountVerification unreachable(ProvisioningTarget.Account account) {
        return failed("Keel could not assume " + account.roleArn() + " with external id " + account.externalId()
                + ": the role does not exist, or its trust policy does not let Keel's account call sts:AssumeRole with "
                + "that sts:ExternalId. Deploy the onboarding template in account " + account.awsAccountId()
                + " and register the role ARN it outputs.");
    }

    public static AccountVerification failed(String message) {
        return new AccountVerification(List.of(), message);
    }

    public boolean verified() {
        return missingActions.isEmpty() && message == null;
    }
}
