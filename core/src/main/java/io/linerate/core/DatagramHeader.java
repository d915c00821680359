package io.linerate.core;

import java.nio.ByteBuffer;

/**
 * The header linerate puts at the start of every datagram and frame it sends, big-endian:
 *
 * <pre>
 * offset 0  u32  magic 0x4C4E5254 ("LNRT")
 * offset 4  u32  stream id
 * offset 8  u64  sequence number, starting at 0
 * offset 16 u64  send time, sender's {@link Clock} in ns
 * </pre>
 *
 * The rest of the payload is zero. Methods use absolute indexes and never allocate.
 */
public final class DatagramHeader {
    /** Header size in bytes; the smallest payload a UDP transfer accepts. */
    public static final int BYTES = 24;
    /** "LNRT" in ASCII. */
    public static final int MAGIC = 0x4C4E5254;

    private DatagramHeader() {}

    /** Writes a header at index 0 of {@code buf}; position and limit are not changed. */
    public static void write(ByteBuffer buf, int streamId, long sequence, long sendTimeNanos) {
        buf.putInt(0, MAGIC);
        buf.putInt(4, streamId);
        buf.putLong(8, sequence);
        buf.putLong(16, sendTimeNanos);
    }

    /**
     * @param buf a received datagram starting at index 0
     * @param length bytes received
     * @param streamId the stream expected
     * @return whether the datagram is long enough and carries this stream's magic and id
     */
    public static boolean matches(ByteBuffer buf, int length, int streamId) {
        return length >= BYTES && buf.getInt(0) == MAGIC && buf.getInt(4) == streamId;
    }

    /** @return the sequence number of a datagram that {@link #matches} */
    public static long sequence(ByteBuffer buf) {
        return buf.getLong(8);
    }

    /** @return the send time (ns) of a datagram that {@link #matches} */
    public static long sendTime(ByteBuffer buf) {
        return buf.getLong(16);
    }
}
