package dev.keel.provisioner.aws;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.keel.provisioner.AccountVerification;
import dev.keel.provisioner.ProvisioningException;
import dev.keel.provisioner.ProvisioningTarget;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.ContextEntry;
import software.amazon.awssdk.services.iam.model.ContextKeyTypeEnum;
import software.amazon.awssdk.services.iam.model.PolicyEvaluationDecisionType;

/**
 * Checks a customer's role without changing anything: assumes it with the external id, then asks
 * IAM's policy simulator, as the role itself, whether its policies allow each
 * {@link RequiredPermissions required action} on the resources and with the context the
 * provisioner uses. Transient AWS failures are thrown (nothing could be decided); everything else
 * is an answer.
 */
final class RoleVerifier {

    private static final Logger log = LoggerFactory.getLogger(RoleVerifier.class);

    private final AwsClients clients;

    RoleVerifier(AwsClients clients) {
        this.clients = clients;
    }

    AccountVerification verify(ProvisioningTarget.Account account, String region) {
        IamClient iam;
        try {
            iam = clients.freshIam(account, region);
        } catch (ProvisioningException e) {
            if (e.retryable()) {
                throw e;
            }
            log.info("Assuming {} failed: {}", account.roleArn(), e.getMessage());
            return AccountVerification.unreachable(account);
        }
        List<ContextEntry> context = RequiredPermissions.context(account.roleArn()).entrySet().stream()
                .map(e -> ContextEntry.builder().contextKeyName(e.getKey()).contextKeyValues(e.getValue())
                        .contextKeyType(ContextKeyTypeEnum.STRING).build())
                .toList();
        try (iam) {
            Set<String> missing = new TreeSet<>();
            for (Map.Entry<String, List<String>> probe : RequiredPermissions.byResource(account.roleArn()).entrySet()) {
                AwsCalls.run("iam:SimulatePrincipalPolicy", () -> iam.simulatePrincipalPolicyPaginator(b -> b
                                .policySourceArn(account.roleArn()).actionNames(probe.getValue())
                                .resourceArns(probe.getKey()).contextEntries(context))
                        .evaluationResults()
                        .forEach(result -> {
                            if (result.evalDecision() != PolicyEvaluationDecisionType.ALLOWED) {
                                missing.add(result.evalActionName());
                            }
                        }));
            }
            return missing.isEmpty() ? AccountVerification.allowed() : AccountVerification.missing(List.copyOf(missing));
        } catch (ProvisioningException e) {
            if (e.code().equals(AwsCalls.ACCESS_DENIED)) {
                return AccountVerification.failed("The role does not allow iam:SimulatePrincipalPolicy, with which Keel "
                        + "checks its permissions without changing anything. Update the role from the current "
                        + "onboarding template.");
            }
            if (e.code().equals("AWS_NoSuchEntity")) {
                // Only where the role could be assumed without existing (emulators): on AWS, assuming it fails first.
                return AccountVerification.unreachable(account);
            }
            throw e;
        }
    }
}
