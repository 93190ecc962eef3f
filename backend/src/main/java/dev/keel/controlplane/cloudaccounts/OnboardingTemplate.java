package dev.keel.controlplane.cloudaccounts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.ClassPathResource;
import org.springframework.stereotype.Component;

/**
 * The CloudFormation template a customer deploys to let the control plane in: a role that only
 * this control plane's account can assume, only with the organization's external id, and whose
 * policy reaches only resources Keel tags or names.
 */
@Component
class OnboardingTemplate {

    private final String template;
    private final String controlPlaneAccountId;

    OnboardingTemplate(@Value("${keel.control-plane.aws-account-id}") String controlPlaneAccountId) {
        this.controlPlaneAccountId = controlPlaneAccountId;
        try (InputStream in = new ClassPathResource("onboarding/cross-account-role.yaml").getInputStream()) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String forOrganization(String externalId) {
        return template.replace("{{externalId}}", externalId).replace("{{controlPlaneAccountId}}", controlPlaneAccountId);
    }
}
