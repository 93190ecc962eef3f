package dev.keel.controlplane.billing;

/**
 * What an organization without an AWS Marketplace subscription may run, so a new user can try the product: AKU-hours
 * in all ({@code keel.billing.trial.aku-hours}) and AKU at once across the organization ({@code keel.billing.trial.max-aku}).
 */
record Trial(int akuHours, int maxAku) {
}
