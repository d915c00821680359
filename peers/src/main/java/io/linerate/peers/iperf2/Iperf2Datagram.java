package io.linerate.peers.iperf2;

import java.nio.ByteBuffer;

/**
 * iperf 2's UDP datagram header, big-endian at the start of every datagram: a signed 32-bit id,
 * the send time as 32-bit seconds and microseconds, and (16-byte layouts) a fourth word that
 * {@link Iperf2HeaderVariant#SEQ64} uses as the id's upper 32 bits. A client header
 * ({@code client_hdr_v1}: flags, threads, port, buffer length, rate, amount; six 32-bit words)
 * follows it. All methods read and write at absolute offsets, leaving position and limit alone,
 * and allocate nothing: they are pure functions over the buffer's bytes.
 */
final class Iperf2Datagram {
    /** Bytes of the client header after the datagram header. */
    public static final int CLIENT_HEADER_BYTES = 24;

    private Iperf2Datagram() {}

    /** @return the smallest datagram linerate sends in {@code v}: its header and a client header */
    public static int minBytes(Iperf2HeaderVariant v) {
        return v.headerBytes() + CLIENT_HEADER_BYTES;
    }

    /**
     * Writes the datagram header at offset 0.
     *
     * @param buf at least {@link Iperf2HeaderVariant#headerBytes()} bytes
     * @param v the layout
     * @param id the sequence number, from 1; the final datagram's is negative; {@link Iperf2HeaderVariant#SEQ64}
     *     writes all 64 bits, the others the low 32 (and 0 in SEQ32's fourth word)
     * @param epochMicros send time, microseconds since the Unix epoch (seconds written mod 2^32)
     */
    public static void writeHeader(ByteBuffer buf, Iperf2HeaderVariant v, long id, long epochMicros) {
        buf.putInt(0, (int) id);
        buf.putInt(4, (int) (epochMicros / 1_000_000L));
        buf.putInt(8, (int) (epochMicros % 1_000_000L));
        if (v.headerBytes() == 16) {
            buf.putInt(12, v == Iperf2HeaderVariant.SEQ64 ? (int) (id >> 32) : 0);
        }
    }

    /**
     * Writes the client header after the datagram header: flags ({@code HEADER_SEQNO64B} for
     * {@link Iperf2HeaderVariant#SEQ64}, else 0, which tells the server to ignore the rest), one
     * thread, the server's port, the datagram length, the rate and the amount.
     *
     * @param amount iperf 2's {@code mAmount}: bytes when positive, hundredths of a second when negative
     */
    public static void writeClientHeader(ByteBuffer buf, Iperf2HeaderVariant v, int port, int payload, long rateBitsPerSecond,
                                         int amount) {
        int at = v.headerBytes();
        buf.putInt(at, v == Iperf2HeaderVariant.SEQ64 ? Iperf2HeaderVariant.HEADER_SEQNO64B : 0);
        buf.putInt(at + 4, 1);
        buf.putInt(at + 8, port);
        buf.putInt(at + 12, payload);
        buf.putInt(at + 16, (int) Math.min(Integer.MAX_VALUE, rateBitsPerSecond));
        buf.putInt(at + 20, amount);
    }

    /**
     * @param buf a datagram of at least {@link Iperf2HeaderVariant#headerBytes()} bytes
     * @param v its layout
     * @return its id, signed: negative for the final datagram; {@link Iperf2HeaderVariant#SEQ64}
     *     joins the upper word, the others sign-extend the 32-bit id
     */
    public static long id(ByteBuffer buf, Iperf2HeaderVariant v) {
        int low = buf.getInt(0);
        if (v == Iperf2HeaderVariant.SEQ64) {
            return ((long) buf.getInt(12) << 32) | Integer.toUnsignedLong(low);
        }
        return low;
    }

    /** @return the send time in microseconds since the Unix epoch, both words read unsigned */
    public static long sendMicros(ByteBuffer buf) {
        return Integer.toUnsignedLong(buf.getInt(4)) * 1_000_000L + Integer.toUnsignedLong(buf.getInt(8));
    }

    /** @return the client header's flags word (0 when the datagram is too short to hold one) */
    public static int clientFlags(ByteBuffer buf, Iperf2HeaderVariant v) {
        return buf.limit() >= v.headerBytes() + 4 ? buf.getInt(v.headerBytes()) : 0;
    }

    /**
     * @return the extended client header's upper flags (16 bits, 32 bytes into the client header,
     *     iperf 2.1's {@code upperflags}), or 0 when the header has no extension or the datagram is too short
     */
    public static int clientUpperFlags(ByteBuffer buf, Iperf2HeaderVariant v) {
        return upperFlags(buf, v.headerBytes(), clientFlags(buf, v));
    }

    /**
     * @param at where the client header starts in {@code buf}
     * @param flags its flags word
     * @return its extension's upper flags, or 0 without {@code HEADER_EXTEND} or when {@code buf} is too short
     */
    public static int upperFlags(ByteBuffer buf, int at, int flags) {
        if ((flags & Iperf2HeaderVariant.HEADER_EXTEND) == 0 || buf.limit() < at + UPPER_FLAGS_OFFSET + 2) {
            return 0;
        }
        return buf.getShort(at + UPPER_FLAGS_OFFSET) & 0xffff;
    }

    /** Offset of the extension's upper flags in a client header: 6 base words, then the extension's type and length. */
    private static final int UPPER_FLAGS_OFFSET = 32;
    /** Upper flag: the server sends (iperf 2.1's {@code -R}, {@code HEADER_REVERSE}). */
    public static final int HEADER_REVERSE = 0x0400;
    /** Upper flag: both send at once (iperf 2.1's {@code --full-duplex}, {@code HEADER_FULLDUPLEX}). */
    public static final int HEADER_FULLDUPLEX = 0x0800;

    /**
     * What a client header asks of the server that linerate's server does not do, which all need
     * the server to send: {@code HEADER_VERSION1} with {@code RUN_NOW} is iperf's {@code -d} (dual
     * test), without it {@code -r} (tradeoff test); with {@code HEADER_EXTEND}, the upper flag
     * {@code HEADER_REVERSE} is {@code -R} and {@code HEADER_FULLDUPLEX} {@code --full-duplex}.
     *
     * @param flags the client header's flags word
     * @param upperFlags its extension's upper flags ({@link #upperFlags}), 0 when it has none
     * @return the option named, or null when the header asks for none of them
     */
    public static String reverseTestRequest(int flags, int upperFlags) {
        if ((flags & Iperf2HeaderVariant.HEADER_EXTEND) != 0 && (upperFlags & HEADER_REVERSE) != 0) {
            return "-R (reverse test)";
        }
        if ((flags & Iperf2HeaderVariant.HEADER_EXTEND) != 0 && (upperFlags & HEADER_FULLDUPLEX) != 0) {
            return "--full-duplex";
        }
        if ((flags & Iperf2HeaderVariant.HEADER_VERSION1) == 0) {
            return null;
        }
        return (flags & Iperf2HeaderVariant.RUN_NOW) != 0 ? "-d (dual test)" : "-r (tradeoff test)";
    }
}
