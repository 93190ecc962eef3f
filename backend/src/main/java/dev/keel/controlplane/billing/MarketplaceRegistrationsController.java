package dev.keel.controlplane.billing;

import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.PathIds;

@RestController
@RequestMapping("/api/v1/marketplace/registrations")
class MarketplaceRegistrationsController {

    private final MarketplaceRegistrations registrations;
    private final ChangeAnswers answers;

    MarketplaceRegistrationsController(MarketplaceRegistrations registrations, ChangeAnswers answers) {
        this.registrations = registrations;
        this.answers = answers;
    }

    /** What the reference stands for, for the admin to confirm before linking it. */
    @GetMapping("/{reference:" + PathIds.UUID + "}")
    MarketplaceRegistration get(Caller caller, @PathVariable UUID reference,
                                @CookieValue(name = RegistrationBrowser.COOKIE, required = false) String browser) {
        return registrations.get(caller, reference, browser);
    }

    @PostMapping
    ResponseEntity<MarketplaceRegistration> link(Caller caller, @RequestBody Link link,
                                                 @CookieValue(name = RegistrationBrowser.COOKIE, required = false) String browser) {
        if (link.reference() == null) {
            throw ApiException.validation("reference", "is required: the reference the registration page was opened with");
        }
        return answers.answer(() -> registrations.link(caller, link.reference(), browser),
                linked -> ResponseEntity.status(HttpStatus.CREATED).body(linked));
    }

    record Link(UUID reference) {
    }
}
