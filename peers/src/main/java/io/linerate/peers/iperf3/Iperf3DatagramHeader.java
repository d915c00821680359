package io.linerate.peers.iperf3;

import java.nio.ByteBuffer;

/**
 * iperf3's UDP datagram header, all fields big-endian, at the start of every datagram: send time
 * as 32-bit seconds and 32-bit microseconds, then the sequence number, 32-bit (12 bytes in all),
 * or 64-bit when the test's {@code udp_counters_64bit} parameter is set (16 bytes). The sender's
 * first datagram carries sequence number 1. Reads and writes at absolute positions from 0, so the
 * buffer's position and limit are left alone; allocation-free.
 */
final class Iperf3DatagramHeader {
    /** Header bytes with a 32-bit sequence number. */
    public static final int BYTES_32 = 12;
    /** Header bytes with a 64-bit sequence number. */
    public static final int BYTES_64 = 16;

    private Iperf3DatagramHeader() {}

    /** @return {@link #BYTES_64} or {@link #BYTES_32} */
    public static int bytes(boolean counters64) {
        return counters64 ? BYTES_64 : BYTES_32;
    }

    /**
     * Writes a header at offset 0.
     *
     * @param buf at least {@link #bytes} long
     * @param epochMicros send time, microseconds since the Unix epoch (seconds are written mod 2^32)
     * @param sequence the sequence number; written mod 2^32 when {@code counters64} is false
     * @param counters64 whether the sequence number is 64-bit
     */
    public static void write(ByteBuffer buf, long epochMicros, long sequence, boolean counters64) {
        buf.putInt(0, (int) (epochMicros / 1_000_000L));
        buf.putInt(4, (int) (epochMicros % 1_000_000L));
        if (counters64) {
            buf.putLong(8, sequence);
        } else {
            buf.putInt(8, (int) sequence);
        }
    }

    /**
     * @param buf a received datagram of at least {@link #bytes} bytes from offset 0
     * @param counters64 whether the sequence number is 64-bit
     * @return its sequence number; a 32-bit one is read unsigned
     */
    public static long sequence(ByteBuffer buf, boolean counters64) {
        return counters64 ? buf.getLong(8) : Integer.toUnsignedLong(buf.getInt(8));
    }

    /**
     * The datagram's place in its stream, as a {@link io.linerate.core.spi.SequenceTracker} counts it:
     * iperf3's first datagram carries sequence number 1, so the index is the sequence number less
     * one. A 64-bit number below 1 (0, or 2^63 and above, negative as a signed long) is no number
     * iperf3 sends and gives -1, which the tracker ignores; a 32-bit one is unsigned, so it is -1
     * only for 0.
     *
     * @param buf a received datagram of at least {@link #bytes} bytes from offset 0
     * @param counters64 whether the sequence number is 64-bit
     * @return its 0-based index, 0..2^63 - 2, or -1 when the sequence number is not one iperf3 sends
     */
    public static long index(ByteBuffer buf, boolean counters64) {
        long seq = sequence(buf, counters64);
        return seq < 1 ? -1 : seq - 1;
    }

    /**
     * @param buf a received datagram
     * @return its send time in microseconds since the Unix epoch, seconds read unsigned
     */
    public static long sendMicros(ByteBuffer buf) {
        return Integer.toUnsignedLong(buf.getInt(0)) * 1_000_000L + Integer.toUnsignedLong(buf.getInt(4));
    }
}
