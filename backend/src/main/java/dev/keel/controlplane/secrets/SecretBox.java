package dev.keel.controlplane.secrets;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Encrypts what the control plane must keep but never store in the clear (instances' CA keys, Kafka users'
 * credentials): AES-256-GCM under {@code keel.secrets.key}. Each sealed value is bound to a context naming what it
 * is and whose ({@code "ca-key:<instance id>"}), so a value copied into another row does not open there.
 *
 * <p>Layout: a format byte, the 12-byte nonce, then the ciphertext with its 16-byte tag.
 */
@Component
public class SecretBox {

    private static final byte FORMAT = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random = new SecureRandom();

    SecretBox(@Value("${keel.secrets.key}") String base64Key) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64Key.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("keel.secrets.key must be base64 (32 random bytes)");
        }
        if (raw.length != 32) {
            throw new IllegalStateException("keel.secrets.key must be 32 bytes in base64, not " + raw.length);
        }
        this.key = new SecretKeySpec(raw, "AES");
    }

    public byte[] seal(byte[] plaintext, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed = crypt(Cipher.ENCRYPT_MODE, nonce, plaintext, context);
        return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(FORMAT).put(nonce).put(sealed).array();
    }

    public byte[] seal(String plaintext, String context) {
        return seal(plaintext.getBytes(StandardCharsets.UTF_8), context);
    }

    /** Throws {@link IllegalStateException} when the value was sealed under another key or context, or altered. */
    public byte[] open(byte[] sealed, String context) {
        if (sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8 || sealed[0] != FORMAT) {
            throw new IllegalStateException("not a sealed value of format " + FORMAT + " (" + context + ")");
        }
        byte[] nonce = new byte[NONCE_BYTES];
        System.arraycopy(sealed, 1, nonce, 0, NONCE_BYTES);
        byte[] body = new byte[sealed.length - 1 - NONCE_BYTES];
        System.arraycopy(sealed, 1 + NONCE_BYTES, body, 0, body.length);
        return crypt(Cipher.DECRYPT_MODE, nonce, body, context);
    }

    public String openString(byte[] sealed, String context) {
        return new String(open(sealed, context), StandardCharsets.UTF_8);
    }

    private byte[] crypt(int mode, byte[] nonce, byte[] input, String context) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(input);
        } catch (AEADBadTagException e) {
            throw new IllegalStateException("a sealed value does not open under keel.secrets.key for " + context
                    + ": sealed under another key or context, or altered", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
