package dev.keel.controlplane.cloudaccounts;

import java.net.URI;
import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.identity.Organizations;
import dev.keel.controlplane.shared.Cursor;
import dev.keel.controlplane.shared.Page;
import dev.keel.controlplane.shared.PathIds;

@RestController
@RequestMapping("/api/v1/cloud-accounts")
class CloudAccountsController {

    private final CloudAccounts accounts;
    private final OnboardingTemplate template;
    private final Organizations organizations;
    private final ChangeAnswers answers;

    CloudAccountsController(CloudAccounts accounts, OnboardingTemplate template, Organizations organizations,
                            ChangeAnswers answers) {
        this.accounts = accounts;
        this.template = template;
        this.organizations = organizations;
        this.answers = answers;
    }

    /** The CloudFormation template that creates the cross-account role, with this organization's external id in it. */
    @GetMapping(path = "/onboarding-template", produces = "application/yaml")
    ResponseEntity<String> onboardingTemplate(Caller caller) {
        String externalId = organizations.find(caller.organizationId()).orElseThrow().externalId();
        return ResponseEntity.ok()
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"keel-cross-account-role.yaml\"")
                .body(template.forOrganization(externalId));
    }

    @PostMapping
    ResponseEntity<CloudAccount> register(Caller caller, @RequestBody CloudAccountRegistration registration) {
        // Registered, the account is verified at once; a retry answered from the registration alone (its process died
        // before the verification finished) finds the account still pending verification.
        return answers.answer(() -> accounts.verify(caller, accounts.register(caller, registration).id()),
                account -> ResponseEntity.created(URI.create("/api/v1/cloud-accounts/" + account.id())).body(account));
    }

    @GetMapping
    Page<CloudAccount> list(Caller caller, @RequestParam(required = false) Integer limit,
                            @RequestParam(required = false) String cursor) {
        return accounts.list(caller.organizationId(), Cursor.decode(cursor), Cursor.limit(limit));
    }

    @GetMapping("/{cloudAccountId:" + PathIds.UUID + "}")
    CloudAccount get(Caller caller, @PathVariable UUID cloudAccountId) {
        return accounts.get(caller.organizationId(), cloudAccountId);
    }

    /** Checks the role again, typically after the customer changed its policy. */
    @PostMapping("/{cloudAccountId:" + PathIds.UUID + "}/verify")
    CloudAccount verify(Caller caller, @PathVariable UUID cloudAccountId) {
        return accounts.verify(caller, cloudAccountId);
    }

    @GetMapping("/{cloudAccountId:" + PathIds.UUID + "}/networks")
    AccountNetworks networks(Caller caller, @PathVariable UUID cloudAccountId, @RequestParam(required = false) String region) {
        return accounts.networks(caller, cloudAccountId, region);
    }

    @DeleteMapping("/{cloudAccountId:" + PathIds.UUID + "}")
    ResponseEntity<Void> delete(Caller caller, @PathVariable UUID cloudAccountId) {
        return answers.answer(() -> accounts.delete(caller, cloudAccountId),
                deleted -> ResponseEntity.noContent().build());
    }
}
