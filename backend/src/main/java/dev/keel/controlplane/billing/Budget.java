package dev.keel.controlplane.billing;

import java.util.ArrayList;
import java.util.List;

import dev.keel.controlplane.shared.ApiException;
import dev.keel.controlplane.shared.FieldError;

/**
 * An organization's spend guardrails, as {@code PUT /billing/budget} takes them: each limit left out (null) is none.
 * The monthly budget is in AKU-hours of a calendar month (UTC); the others cap the AKU an instance, and all of the
 * organization's instances together, may be given.
 */
record Budget(Integer monthlyAkuHours, Integer maxAkuPerInstance, Integer maxAkuPerOrganization) {

    static final Budget NONE = new Budget(null, null, null);

    /** Bounds that keep the projections within what a month of the largest organizations could use. */
    static final int MAX_MONTHLY_AKU_HOURS = 100_000_000;
    static final int MAX_AKU = 100_000;

    /** This budget, or every rule it breaks at once on its field. */
    Budget validated() {
        List<FieldError> errors = new ArrayList<>();
        within(errors, "monthlyAkuHours", monthlyAkuHours, MAX_MONTHLY_AKU_HOURS);
        within(errors, "maxAkuPerInstance", maxAkuPerInstance, MAX_AKU);
        within(errors, "maxAkuPerOrganization", maxAkuPerOrganization, MAX_AKU);
        if (maxAkuPerInstance != null && maxAkuPerOrganization != null && maxAkuPerOrganization < maxAkuPerInstance) {
            errors.add(new FieldError("maxAkuPerOrganization", "must be at least maxAkuPerInstance (" + maxAkuPerInstance
                    + "): one instance of the largest size allowed must fit in the organization"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.validation(errors);
        }
        return this;
    }

    private static void within(List<FieldError> errors, String field, Integer value, int max) {
        if (value != null && (value < 1 || value > max)) {
            errors.add(new FieldError(field, "must be from 1 to " + max + "; leave it out for no limit"));
        }
    }
}
