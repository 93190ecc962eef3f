package dev.keel.controlplane.billing;

import java.time.Duration;
import java.time.Instant;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.keel.controlplane.identity.Caller;
import dev.keel.controlplane.shared.ApiException;

@RestController
class BillingController {

    private static final Duration MAX_RANGE = Duration.ofDays(366);

    private final CapacityLedger ledger;
    private final DatabaseTime database;

    BillingController(CapacityLedger ledger, DatabaseTime database) {
        this.ledger = ledger;
        this.database = database;
    }

    /** Default window: the current calendar month (UTC) up to now, by the database's clock as metering counts. */
    @GetMapping("/api/v1/billing/usage")
    Usage usage(Caller caller, @RequestParam(required = false) Instant from, @RequestParam(required = false) Instant to) {
        Instant now = database.now();
        Instant end = to == null ? now : to;
        Instant start = from == null ? BillingMonth.of(end).from() : from;
        if (!start.isBefore(end)) {
            throw ApiException.validation("from", "must be before to");
        }
        if (Duration.between(start, end).compareTo(MAX_RANGE) > 0) {
            throw ApiException.validation("from", "must be at most 366 days before to");
        }
        return Usage.of(ledger.overlapping(caller.organizationId(), start, end), start, end, now);
    }
}
