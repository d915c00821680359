package io.linerate.core.spi.latency;

import java.nio.ByteBuffer;

/**
 * A datagram ping's round trip number, little-endian in its first {@value #BYTES} bytes (fewer in a
 * shorter message), which the echo end sends back unchanged. An answer that carries another number
 * is not this round trip's: a duplicated datagram, or an answer that came after its round trip timed
 * out. Without the stamp it would be taken for the next round trip's answer, and every later round
 * trip would be timed from an answer that was already waiting. Allocation-free.
 */
public final class AnswerStamp {
    /** The most bytes of a message the number takes. */
    public static final int BYTES = Long.BYTES;

    private AnswerStamp() {}

    /** Writes round trip {@code n} into the first min({@value #BYTES}, {@code size}) bytes of {@code ping}. */
    public static void stamp(ByteBuffer ping, int size, long n) {
        int k = Math.min(BYTES, size);
        for (int i = 0; i < k; i++) {
            ping.put(i, (byte) (n >>> (8 * i)));
        }
    }

    /**
     * @return whether {@code answer}'s first min({@value #BYTES}, {@code size}) bytes carry round trip
     *     {@code n}; always true for an empty message, which has no room for a number
     */
    public static boolean carries(ByteBuffer answer, int size, long n) {
        int k = Math.min(BYTES, size);
        for (int i = 0; i < k; i++) {
            if (answer.get(i) != (byte) (n >>> (8 * i))) {
                return false;
            }
        }
        return true;
    }
}
