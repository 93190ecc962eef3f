package dev.keel.controlplane.tls;

import java.math.BigInteger;
import java.security.SecureRandom;

/** Certificates' serial numbers: 128 random bits, so no two certificates of a CA share one. */
final class SerialNumbers {

    private static final SecureRandom RANDOM = new SecureRandom();

    private SerialNumbers() {
    }

    static BigInteger next() {
        byte[] serial = new byte[16];
        RANDOM.nextBytes(serial);
        return new BigInteger(1, serial);
    }
}
