package dev.keel.controlplane.identity;

import java.util.List;
import java.util.UUID;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/api/v1/organizations")
class OrganizationsController {

    private final Organizations organizations;

    OrganizationsController(Organizations organizations) {
        this.organizations = organizations;
    }

    @GetMapping("/me")
    CurrentOrganization me(Caller caller) {
        Organization organization = organizations.find(caller.organizationId()).orElseThrow();
        return new CurrentOrganization(organization.id(), organization.slug(), organization.name(),
                caller.role().wireName(), organization.externalId(),
                new User(caller.subject(), caller.username(), caller.email()),
                caller.memberships().stream().map(m -> new MembershipView(m.slug(), m.role().wireName())).toList());
    }

    record CurrentOrganization(UUID id, String slug, String name, String role, String externalId, User user,
                               List<MembershipView> memberships) {
    }

    record User(String subject, String username, String email) {
    }

    record MembershipView(String slug, String role) {
    }
}
