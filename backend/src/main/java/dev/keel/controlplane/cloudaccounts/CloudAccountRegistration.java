package dev.keel.controlplane.cloudaccounts;

import java.util.List;

record CloudAccountRegistration(String name, String awsAccountId, String roleArn, List<String> regions) {
}
