package dev.keel.provisioner;

/**
 * How an instance's brokers let clients and each other in, fixed at create. {@code SASL_SSL}: clients authenticate
 * with SCRAM-SHA-512 over TLS, brokers and controllers with mutual TLS on certificates of the instance's own CA.
 * {@code PLAINTEXT_UNAUTHENTICATED}: a development flag; any host that reaches the brokers may do anything, unencrypted
 * (what instances created before secure listeners run).
 */
public enum ListenerSecurity {
    SASL_SSL,
    PLAINTEXT_UNAUTHENTICATED
}
