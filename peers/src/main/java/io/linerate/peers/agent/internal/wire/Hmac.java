package io.linerate.peers.agent.internal.wire;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The agent's challenge and response: the agent sends a fresh random nonce of {@value #NONCE_BYTES}
 * bytes, the client answers HMAC-SHA256(secret, nonce) (RFC 2104, FIPS 180-4). The secret never
 * crosses the wire, and an answer recorded once does not answer another nonce.
 */
public final class Hmac {
    /** Length of a nonce, bytes. */
    public static final int NONCE_BYTES = 32;
    /** Length of an answer (the SHA-256 output), bytes. */
    public static final int ANSWER_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private Hmac() {}

    /** @return {@value #NONCE_BYTES} bytes from {@link SecureRandom} */
    public static byte[] nonce() {
        byte[] n = new byte[NONCE_BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * @param secret the shared secret, at least one byte
     * @param nonce the agent's nonce
     * @return HMAC-SHA256(secret, nonce), {@value #ANSWER_BYTES} bytes
     */
    public static byte[] answer(byte[] secret, byte[] nonce) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(nonce);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }

    /**
     * @return whether {@code given} is the answer to {@code nonce}, compared in constant time
     *     ({@link MessageDigest#isEqual})
     */
    public static boolean verify(byte[] secret, byte[] nonce, byte[] given) {
        return given != null && MessageDigest.isEqual(answer(secret, nonce), given);
    }
}
