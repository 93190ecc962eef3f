package dev.keel.controlplane.shared;

/** One rejected input: {@code field} is a dotted path into the request ({@code fsx.count}, {@code network.subnets[1].subnetId}). */
public record FieldError(String field, String message) {
}
