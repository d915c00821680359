package io.linerate.core;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * A linerate agent's shared secret. It is never written out: {@link #toString()} says only that a
 * secret is set, so that no spec, endpoint, log line, text, JSON or KTAP document that prints one
 * shows its bytes. Two secrets are equal when their bytes are (compared in constant time).
 */
public final class PeerSecret {
    private final byte[] bytes;

    private PeerSecret(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * @param bytes the secret, at least one byte; copied
     * @return the secret
     * @throws IllegalArgumentException when {@code bytes} is empty
     */
    public static PeerSecret of(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length == 0) {
            throw new IllegalArgumentException("the secret is 0 bytes long; allowed: 1 byte or more");
        }
        return new PeerSecret(bytes.clone());
    }

    /** @return a copy of the secret's bytes */
    public byte[] bytes() {
        return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PeerSecret s && MessageDigest.isEqual(bytes, s.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** @return {@code "secret"}, never its bytes */
    @Override
    public String toString() {
        return "secret";
    }
}
