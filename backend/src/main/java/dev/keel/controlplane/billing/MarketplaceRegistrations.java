package dev.keel.controlplane.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import dev.keel.controlplane.audit.AuditLog;
import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.idempotency.ChangeAnswers;
import dev.keel.controlplane.identity.Role;
import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.ProblemType;
import dev.keel.marketplace.customers.Buyer;

/**
 * Buyers resolved at the registration URL, kept against a one-time reference until an organization admin links one
 * to their organization: the link inserts the subscription and uses the reference up in one transaction, and
 * {@link SubscriptionLinked} is published once it has committed.
 */
@Service
class MarketplaceRegistrations {

    private static final Duration KEPT_AFTER_EXPIRY = Duration.ofDays(1);
    private static final Logger log = LoggerFactory.getLogger(MarketplaceRegistrations.class);

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final AuditLog audit;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final Duration lifetime;
    private final ChangeAnswers answers;

    MarketplaceRegistrations(JdbcClient jdbc, TransactionTemplate transactions, AuditLog audit,
                             ApplicationEventPublisher events, Clock clock,
                             @Value("${keel.marketplace.registration-lifetime}") Duration lifetime,
                             ChangeAnswers answers) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.audit = audit;
        this.events = events;
        this.clock = clock;
        this.lifetime = lifetime;
        this.answers = answers;
    }

    /**
     * Keeps the buyer for {@code keel.marketplace.registration-lifetime} and answers its reference, with the secret of
     * the browser it is bound to.
     */
    Kept keep(Buyer buyer) {
        Instant now = clock.instant();
        jdbc.sql("DELETE FROM marketplace_registrations WHERE expires_at < ?")
                .param(Timestamp.from(now.minus(KEPT_AFTER_EXPIRY))).update();
        UUID reference = UUID.randomUUID();
        String browserSecret = RegistrationBrowser.newSecret();
        jdbc.sql("""
                        INSERT INTO marketplace_registrations (reference, product_code, customer_aws_account_id,
                                                               license_arn, customer_identifier, created_at, expires_at,
                                                               browser_secret_sha256)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                .params(reference, buyer.productCode(), buyer.customerAwsAccountId(), buyer.licenseArn(),
                        buyer.customerIdentifier(), Timestamp.from(now), Timestamp.from(now.plus(lifetime)),
                        RegistrationBrowser.sha256(browserSecret))
                .update();
        return new Kept(reference, browserSecret, lifetime);
    }

    record Kept(UUID reference, String browserSecret, Duration lifetime) {
    }

    /** Whether the buyer's licence (or, on an older listing, the customer) already pays for an organization. */
    boolean alreadyLinked(Buyer buyer) {
        return linkedLicence(buyer.productCode(), buyer.licenseArn(), buyer.customerIdentifier());
    }

    /**
     * The registration an admin is asked to confirm, in the browser it is bound to ({@code browserSecret} is that
     * browser's cookie, null without one); a used or expired one is refused as such.
     */
    MarketplaceRegistration get(Caller caller, UUID reference, String browserSecret) {
        refuseUnlessAdmin(caller, "Seeing a Marketplace registration in ");
        MarketplaceRegistration registration = find(reference, false)
                .orElseThrow(() -> unknown(reference)).in(browserSecret);
        refuseUsedOrExpired(caller, registration);
        return registration;
    }

    MarketplaceRegistration link(Caller caller, UUID reference, String browserSecret) {
        refuseUnlessAdmin(caller, "Linking a subscription to ");
        MarketplaceRegistration linked = transactions.execute(status -> {
            MarketplaceRegistration registration = find(reference, true).orElseThrow(() -> unknown(reference))
                    .in(browserSecret);
            refuseUsedOrExpired(caller, registration);
            if (alreadyLinked(registration)) {
                throw licenceLinked();
            }
            if (hasCurrentSubscription(caller.organizationId())) {
                throw subscriptionExists(caller);
            }
            Instant now = clock.instant();
            UUID subscription = UUID.randomUUID();
            try {
                jdbc.sql("""
                                INSERT INTO marketplace_subscriptions (id, organization_id, product_code,
                                    customer_aws_account_id, license_arn, customer_identifier, state, state_event_at)
                                VALUES (?, ?, ?, ?, ?, ?, 'PENDING', ?)
                                """)
                        .params(subscription, caller.organizationId(), registration.productCode(),
                                registration.customerAwsAccountId(), registration.licenseArn(),
                                registration.customerIdentifier(), Timestamp.from(now))
                        .update();
            } catch (DuplicateKeyException e) {
                // Another link committed between the checks and the insert: the unique indexes decide who won.
                throw e.getMessage() != null && e.getMessage().contains("marketplace_subscriptions_current")
                        ? subscriptionExists(caller) : licenceLinked();
            }
            jdbc.sql("UPDATE marketplace_registrations SET subscription_id = ?, used_at = ? WHERE reference = ?")
                    .params(subscription, Timestamp.from(now), reference)
                    .update();
            MarketplaceRegistration done = registration.linked(subscription, now);
            audit.record(caller, "marketplace-subscription.link", "marketplace-subscription", subscription, null, done);
            return answers.record(done);
        });
        try {
            events.publishEvent(new SubscriptionLinked(linked.subscriptionId(), caller.organizationId()));
        } catch (RuntimeException e) {
            // The link is committed and the reference used up: the caller must hear that it worked.
            log.error("Subscription {} of organization {} is linked, but a listener of SubscriptionLinked failed",
                    linked.subscriptionId(), caller.organizationId(), e);
        }
        return linked;
    }

    /**
     * A registration says which subscription pays for whom, and linking it decides that: only an admin of the
     * organization it would be (or was) linked to may see or link it.
     */
    private static void refuseUnlessAdmin(Caller caller, String doing) {
        if (caller.role() != Role.ADMIN) {
            String org = caller.organizationSlug();
            throw ApiException.of(ProblemType.FORBIDDEN, "reference", doing + org + " needs the admin role; you are "
                    + caller.role().wireName() + " in " + org + ". Sign in as an admin of " + org + " in the browser "
                    + "that came from AWS Marketplace, or ask one to choose Set up your account there.");
        }
    }

    private boolean alreadyLinked(MarketplaceRegistration registration) {
        return linkedLicence(registration.productCode(), registration.licenseArn(), registration.customerIdentifier());
    }

    private boolean linkedLicence(String productCode, String licenseArn, String customerIdentifier) {
        return jdbc.sql("""
                        SELECT EXISTS (SELECT 1 FROM marketplace_subscriptions
                                       WHERE product_code = ? AND (license_arn = ? OR customer_identifier = ?))
                        """)
                .params(productCode, licenseArn, customerIdentifier)
                .query(Boolean.class).single();
    }

    private boolean hasCurrentSubscription(UUID organizationId) {
        return jdbc.sql("SELECT EXISTS (SELECT 1 FROM marketplace_subscriptions WHERE organization_id = ? AND state <> 'ENDED')")
                .param(organizationId)
                .query(Boolean.class).single();
    }

    private void refuseUsedOrExpired(Caller caller, MarketplaceRegistration registration) {
        if (registration.subscriptionId() != null) {
            boolean ours = jdbc.sql("SELECT EXISTS (SELECT 1 FROM marketplace_subscriptions WHERE id = ? AND organization_id = ?)")
                    .params(registration.subscriptionId(), caller.organizationId())
                    .query(Boolean.class).single();
            throw ApiException.of(ProblemType.REGISTRATION_USED, "reference", ours
                    ? "This subscription is already linked to " + caller.organizationSlug() + "; see Billing."
                    : "This registration was already used to link its subscription; it cannot be used again. If the "
                    + "subscription is yours, ask an admin of the organization it is linked to.");
        }
        if (!clock.instant().isBefore(registration.expiresAt())) {
            throw ApiException.of(ProblemType.REGISTRATION_EXPIRED, "reference", "This registration expired at "
                    + registration.expiresAt() + ". Open your subscription on AWS Marketplace and choose Set up your "
                    + "account again to get a new one.");
        }
    }

    private Optional<Stored> find(UUID reference, boolean forUpdate) {
        return jdbc.sql("""
                        SELECT * FROM marketplace_registrations WHERE reference = ?
                        """ + (forUpdate ? " FOR UPDATE" : ""))
                .param(reference)
                .query(MarketplaceRegistrations::registration)
                .optional();
    }

    private static Stored registration(ResultSet rs, int row) throws SQLException {
        Timestamp usedAt = rs.getTimestamp("used_at");
        return new Stored(new MarketplaceRegistration(rs.getObject("reference", UUID.class),
                rs.getString("customer_aws_account_id"), rs.getString("license_arn"), rs.getString("customer_identifier"),
                rs.getString("product_code"), rs.getTimestamp("expires_at").toInstant(),
                rs.getObject("subscription_id", UUID.class), usedAt == null ? null : usedAt.toInstant()),
                rs.getBytes("browser_secret_sha256"));
    }

    /** A registration as kept, with the hash of its browser's secret, which is never shown. */
    private record Stored(MarketplaceRegistration registration, byte[] browserSecretSha256) {

        /**
         * The registration, when {@code browserSecret} is its browser's; refused before anything else is said of it
         * (used, expired), which is its browser's business.
         */
        MarketplaceRegistration in(String browserSecret) {
            if (!RegistrationBrowser.matches(browserSecret, browserSecretSha256)) {
                throw ApiException.of(ProblemType.REGISTRATION_OTHER_BROWSER, "reference", "This registration can be "
                        + "seen and linked only in the browser AWS Marketplace sent to Keel with it"
                        + (browserSecret == null ? ", and this request came without that browser's cookie ("
                        + RegistrationBrowser.COOKIE + ")" : "; this request came with another registration's cookie "
                        + "(a later registration in a browser replaces the earlier one's)")
                        + ". Open the link in that browser, or choose Set up your account on AWS Marketplace again "
                        + "from this one.");
            }
            return registration;
        }
    }

    private static ApiException unknown(UUID reference) {
        return ApiException.of(ProblemType.NOT_FOUND, "reference", "No registration " + reference
                + " is waiting: it was never made, or expired more than a day ago. Open your subscription on AWS "
                + "Marketplace and choose Set up your account again.");
    }

    private static ApiException licenceLinked() {
        return ApiException.of(ProblemType.LICENSE_ALREADY_LINKED, "reference", "This subscription's licence is "
                + "already linked to an organization in Keel. Sign in as a member of that organization to use it.");
    }

    private static ApiException subscriptionExists(Caller caller) {
        return ApiException.of(ProblemType.SUBSCRIPTION_EXISTS, "reference", caller.organizationSlug()
                + " already has a Marketplace subscription that has not ended; an organization is billed through one. "
                + "Link this one to another organization, or end the current one on AWS Marketplace first.");
    }
}
