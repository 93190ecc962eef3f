package dev.keel.controlplane.identity;

import java.util.UUID;

/** A tenant. {@code externalId} goes into customers' cross-account role trust policies. */
public record Organization(UUID id, String slug, String name, String externalId) {
}
