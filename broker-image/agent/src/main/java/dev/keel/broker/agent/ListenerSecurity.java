package dev.keel.broker.agent;

/**
 * How the brokers' listeners are secured. {@link #SASL_SSL}: clients authenticate with SCRAM-SHA-512 over TLS, brokers
 * and controllers with mutual TLS under the instance's CA. {@link #PLAINTEXT_UNAUTHENTICATED}: the development flag
 * (and every instance created before listeners were secured): plaintext, anyone who reaches a port is served.
 */
public enum ListenerSecurity {
    SASL_SSL,
    PLAINTEXT_UNAUTHENTICATED
}
