package dev.keel.controlplane.settings;

/**
 * A setting the control plane never guesses: {@code property} as Spring reads it, {@code variable} as an operator sets
 * it, and what it is for, which the startup failure repeats.
 */
record RequiredSetting(String property, String variable, Scope scope, String purpose) {

    enum Scope {
        /** Given explicitly in every profile, local development included: a wrong guess is silent. */
        EVERY_PROFILE,
        /**
         * The local profile carries a development value ({@code application-local.yaml}); anywhere else the setting
         * must be given, and not as that value.
         */
        OUTSIDE_LOCAL_DEVELOPMENT,
        /**
         * The local profile carries a development value ({@code application-local.yaml}); anywhere else the setting
         * must be given, where that value may be a real one too (a database user named {@code keel}).
         */
        GIVEN_OUTSIDE_LOCAL_DEVELOPMENT,
        /**
         * A development stand-in that only the local profile may give ({@code application-local.yaml} does); anywhere
         * else it must not be set at all.
         */
        LOCAL_DEVELOPMENT_ONLY
    }
}
