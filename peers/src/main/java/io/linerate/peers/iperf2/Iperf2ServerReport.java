package io.linerate.peers.iperf2;

import java.nio.ByteBuffer;

/**
 * The report an iperf 2 UDP server sends back for the final datagram ({@code server_hdr}):
 * after a datagram header of the client's layout, ten big-endian 32-bit words: flags
 * ({@code HEADER_VERSION1} set, {@code HEADER_SEQNO64B} when the counts have upper words), bytes
 * received (two words, high first), the test's duration (seconds, microseconds), datagrams lost,
 * datagrams out of order, datagrams in all (the final datagram's id, made positive: received plus
 * lost), and jitter (seconds, microseconds). Current iperf 2 appends 15 words of transit
 * statistics and then, with {@code HEADER_SEQNO64B}, the upper words of the three counts.
 *
 * @param flags the report's flags word
 * @param bytes payload bytes the server received, the final datagram included
 * @param durationMicros the server's time from the first datagram to the final one, µs
 * @param errors datagrams the server counts lost
 * @param outOfOrder datagrams that arrived after a higher id
 * @param datagrams datagrams in all by the server's count (received + lost)
 * @param jitterMicros the server's jitter estimate, µs
 */
public record Iperf2ServerReport(int flags, long bytes, long durationMicros, long errors, long outOfOrder, long datagrams,
                                 long jitterMicros) {
    /** Bytes of the ten base words. */
    public static final int BASE_BYTES = 40;
    /** Bytes of the transit-statistics words current iperf 2 appends. */
    public static final int EXTENSION_BYTES = 60;
    /** Bytes of the upper words of the counts. */
    public static final int EXTENSION2_BYTES = 12;

    /** @return bytes of a report for {@code v}: its header, the base words and, for SEQ64, both extensions */
    public static int bytes(Iperf2HeaderVariant v) {
        return v.headerBytes() + BASE_BYTES + (v == Iperf2HeaderVariant.SEQ64 ? EXTENSION_BYTES + EXTENSION2_BYTES : 0);
    }

    /**
     * Parses a report datagram: a pure function over {@code buf}'s bytes from 0 to its limit.
     *
     * @param buf the received datagram
     * @param headerBytes the datagram header's length before the report: 16 or 12
     * @return the report
     * @throws IllegalArgumentException when the datagram is shorter than the header and the ten
     *     base words, its flags lack {@code HEADER_VERSION1} (not a report), or a 64-bit count (bytes;
     *     lost, out-of-order and all datagrams with their upper words) is 2^63 or more
     */
    public static Iperf2ServerReport parse(ByteBuffer buf, int headerBytes) {
        if (headerBytes != 12 && headerBytes != 16) {
            throw new IllegalArgumentException("header length " + headerBytes + " bytes is out of range; allowed: 12, 16");
        }
        int n = buf.limit();
        if (n < headerBytes + BASE_BYTES) {
            throw new IllegalArgumentException("an iperf 2 server report of " + n + " bytes is too short; allowed: "
                    + (headerBytes + BASE_BYTES) + " or more");
        }
        int at = headerBytes;
        int flags = buf.getInt(at);
        if ((flags & Iperf2HeaderVariant.HEADER_VERSION1) == 0) {
            throw new IllegalArgumentException(String.format("flags 0x%08x lack HEADER_VERSION1 (0x80000000): not an iperf 2 "
                    + "server report", flags));
        }
        long bytes = (Integer.toUnsignedLong(buf.getInt(at + 4)) << 32) | Integer.toUnsignedLong(buf.getInt(at + 8));
        countInRange("bytes", bytes);
        long duration = Integer.toUnsignedLong(buf.getInt(at + 12)) * 1_000_000L + Integer.toUnsignedLong(buf.getInt(at + 16));
        long errors = Integer.toUnsignedLong(buf.getInt(at + 20));
        long outOfOrder = Integer.toUnsignedLong(buf.getInt(at + 24));
        long datagrams = Integer.toUnsignedLong(buf.getInt(at + 28));
        long jitter = Integer.toUnsignedLong(buf.getInt(at + 32)) * 1_000_000L + Integer.toUnsignedLong(buf.getInt(at + 36));
        int upper = at + BASE_BYTES + EXTENSION_BYTES;
        if ((flags & Iperf2HeaderVariant.HEADER_SEQNO64B) != 0 && n >= upper + EXTENSION2_BYTES) {
            errors |= Integer.toUnsignedLong(buf.getInt(upper)) << 32;
            outOfOrder |= Integer.toUnsignedLong(buf.getInt(upper + 4)) << 32;
            datagrams |= Integer.toUnsignedLong(buf.getInt(upper + 8)) << 32;
            countInRange("lost datagrams", errors);
            countInRange("out-of-order datagrams", outOfOrder);
            countInRange("datagrams", datagrams);
        }
        return new Iperf2ServerReport(flags, bytes, duration, errors, outOfOrder, datagrams, jitter);
    }

    /** A 64-bit count read unsigned must fit a long: no peer counts 2^63 of anything. */
    private static void countInRange(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("an iperf 2 server report of " + Long.toUnsignedString(value) + " " + what
                    + " is out of range; allowed: 0.." + Long.MAX_VALUE);
        }
    }

    /**
     * Writes this report as the datagram that answers a final datagram of layout {@code v}: a
     * zeroed datagram header (as current iperf 2 sends), the base words with {@code HEADER_VERSION1}
     * (and {@code HEADER_SEQNO64B} for SEQ64), and for SEQ64 zeroed transit statistics and the
     * counts' upper words. Allocation-free.
     *
     * @param buf at least {@link #bytes(Iperf2HeaderVariant)} bytes; written from 0, its limit set to the report's end
     */
    public void write(ByteBuffer buf, Iperf2HeaderVariant v) {
        int len = bytes(v);
        buf.clear().limit(len);
        for (int i = 0; i < len; i += 4) {
            buf.putInt(i, 0);
        }
        int at = v.headerBytes();
        boolean wide = v == Iperf2HeaderVariant.SEQ64;
        buf.putInt(at, Iperf2HeaderVariant.HEADER_VERSION1 | (wide ? Iperf2HeaderVariant.HEADER_SEQNO64B : 0));
        buf.putInt(at + 4, (int) (bytes >>> 32));
        buf.putInt(at + 8, (int) bytes);
        buf.putInt(at + 12, (int) (durationMicros / 1_000_000L));
        buf.putInt(at + 16, (int) (durationMicros % 1_000_000L));
        buf.putInt(at + 20, (int) errors);
        buf.putInt(at + 24, (int) outOfOrder);
        buf.putInt(at + 28, (int) datagrams);
        buf.putInt(at + 32, (int) (jitterMicros / 1_000_000L));
        buf.putInt(at + 36, (int) (jitterMicros % 1_000_000L));
        if (wide) {
            int upper = at + BASE_BYTES + EXTENSION_BYTES;
            buf.putInt(upper, (int) (errors >>> 32));
            buf.putInt(upper + 4, (int) (outOfOrder >>> 32));
            buf.putInt(upper + 8, (int) (datagrams >>> 32));
        }
    }

    /** @return datagrams the server received: in all less lost */
    public long received() {
        return Math.max(0, datagrams - errors);
    }
}
