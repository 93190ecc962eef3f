package dev.keel.marketplace.customers;

/** What a registration token turned out to be: a buyer, or why not. */
public sealed interface Resolution {

    record Resolved(Buyer buyer) implements Resolution {
    }

    /** {@code detail} is AWS's own message, for the log; the reason is what a person is told. */
    record Refused(Reason reason, String detail) implements Resolution {
    }

    enum Reason {
        /** AWS never issued the token, or it was altered: the buyer should start again from AWS Marketplace. */
        INVALID_TOKEN,
        /** The token is too old (or was already used once): the buyer should start again from AWS Marketplace. */
        EXPIRED_TOKEN,
        /** The token is for another seller's product: not ours to link. */
        OTHER_PRODUCT,
        /** AWS throttled us or did not answer, after the SDK's retries: the same token may work in a moment. */
        UNAVAILABLE,
        /**
         * AWS refused the seller's own call (credentials, permissions, a disabled API): ours to fix, not the buyer's.
         */
        SELLER_MISCONFIGURED
    }
}
