package dev.keel.controlplane.billing;

import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;

@RestController
class SubscriptionController {

    private final MarketplaceSubscriptions subscriptions;
    private final Duration gracePeriod;

    SubscriptionController(MarketplaceSubscriptions subscriptions,
                           @Value("${keel.marketplace.grace-period}") Duration gracePeriod) {
        this.subscriptions = subscriptions;
        this.gracePeriod = gracePeriod;
    }

    /** Any member may read how the organization pays. */
    @GetMapping("/api/v1/billing/subscription")
    SubscriptionView subscription(Caller caller) {
        return subscriptions.ofOrganization(caller.organizationId())
                .map(s -> SubscriptionView.of(s, gracePeriod))
                .orElseGet(SubscriptionView::trial);
    }
}
