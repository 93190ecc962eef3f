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

    public static AccountVerification failed(String message) {
        return new AccountVerification(List.of(), message);
    }

    public boolean verified() {
        return missingActions.isEmpty() && message == null;
    }
}
