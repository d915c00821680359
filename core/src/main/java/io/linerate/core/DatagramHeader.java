package io.linerate.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The header linerate puts at the start of every datagram and frame it sends, big-endian:
 *
 * <pre>
 * offset 0  u32  magic 0x4C4E5254 ("LNRT")
 * offset 4  u32  stream id
 * offset 8  u64  sequence number, starting at 0
 * offset 16 u64  send time, sender's {@link Clock} in ns
 * offset 24 u32  phase of the transfer when it was sent: {@link #WARMUP}, {@link #WINDOW}, {@link #AFTER}
 * offset 28 u32  reserved, 0
 * </pre>
 *
 * The rest of the payload is zero. The phase lets the receiver account the measured window's
 * datagrams exactly, wherever and whenever they arrive. Methods use absolute indexes and never
 * allocate. The {@link DirectBuffer} forms read and write a header at any index of a larger
 * buffer, such as a frame inside a memory-mapped packet ring.
 */
public final class DatagramHeader {
    /** Header size in bytes; the smallest payload a UDP transfer accepts. */
    public static final int BYTES = 32;
    /** Phase: sent during the warm-up. */
    public static final int WARMUP = 0;
    /** Phase: sent inside the measured window. */
    public static final int WINDOW = 1;
    /** Phase: sent after the measured window. */
    public static final int AFTER = 2;
    /** Number of phases. */
    public static final int PHASES = 3;
    /** "LNRT" in ASCII. */
    public static final int MAGIC = 0x4C4E5254;

    private DatagramHeader() {}

    /** Writes a header at index 0 of {@code buf}; position and limit are not changed. */
    public static void write(ByteBuffer buf, int streamId, long sequence, long sendTimeNanos, int phase) {
        write(buf, 0, streamId, sequence, sendTimeNanos, phase);
    }

    /**
     * Writes a header at {@code index} of {@code buf}, in the buffer's byte order (a buffer as
     * allocated is big-endian), such as a segment inside a UDP GSO buffer; position and limit are
     * not changed.
     */
    public static void write(ByteBuffer buf, int index, int streamId, long sequence, long sendTimeNanos, int phase) {
        buf.putInt(index, MAGIC);
        buf.putInt(index + 4, streamId);
        buf.putLong(index + 8, sequence);
        buf.putLong(index + 16, sendTimeNanos);
        buf.putInt(index + 24, phase);
        buf.putInt(index + 28, 0);
    }

    /** Writes a header of the {@link #WINDOW} phase; see {@link #write(ByteBuffer, int, long, long, int)}. */
    public static void write(ByteBuffer buf, int streamId, long sequence, long sendTimeNanos) {
        write(buf, streamId, sequence, sendTimeNanos, WINDOW);
    }

    /**
     * @param buf a received datagram starting at index 0
     * @param length bytes received
     * @param streamId the stream expected
     * @return whether the datagram is long enough and carries this stream's magic and id and a
     *     known phase
     */
    public static boolean matches(ByteBuffer buf, int length, int streamId) {
        return matches(buf, 0, length, streamId);
    }

    /** @return the phase of a datagram that {@link #matches}, 0..{@link #PHASES}−1 */
    public static int phase(ByteBuffer buf) {
        return phase(buf, 0);
    }

    /** @return the sequence number of a datagram that {@link #matches} */
    public static long sequence(ByteBuffer buf) {
        return sequence(buf, 0);
    }

    /** @return the send time (ns) of a datagram that {@link #matches} */
    public static long sendTime(ByteBuffer buf) {
        return sendTime(buf, 0);
    }

    /**
     * @param buf a buffer holding a received datagram at {@code index}, such as one segment of a
     *     coalesced ({@code UDP_GRO}) receive
     * @param index where the datagram starts
     * @param length bytes of the datagram
     * @param streamId the stream expected
     * @return as {@link #matches(ByteBuffer, int, int)}
     */
    public static boolean matches(ByteBuffer buf, int index, int length, int streamId) {
        return length >= BYTES && buf.getInt(index) == MAGIC && buf.getInt(index + 4) == streamId
                && Integer.compareUnsigned(buf.getInt(index + 24), PHASES) < 0;
    }

    /** @return the phase of a header at {@code index} that {@link #matches(ByteBuffer, int, int, int) matches} */
    public static int phase(ByteBuffer buf, int index) {
        return buf.getInt(index + 24);
    }

    /** @return the sequence number of a header at {@code index} that matches */
    public static long sequence(ByteBuffer buf, int index) {
        return buf.getLong(index + 8);
    }

    /** @return the send time (ns) of a header at {@code index} that matches */
    public static long sendTime(ByteBuffer buf, int index) {
        return buf.getLong(index + 16);
    }

    /**
     * Writes a header at {@code index} of {@code buf}, big-endian whatever the buffer's order.
     *
     * @param buf the buffer, such as a frame slot of a packet ring
     * @param index where the header starts
     * @param streamId the stream
     * @param sequence the sequence number, 0 or more
     * @param sendTimeNanos the send time, sender's clock, ns
     * @param phase {@link #WARMUP}, {@link #WINDOW} or {@link #AFTER}
     */
    public static void write(MutableDirectBuffer buf, int index, int streamId, long sequence, long sendTimeNanos, int phase) {
        buf.putInt(index, MAGIC, ByteOrder.BIG_ENDIAN);
        buf.putInt(index + 4, streamId, ByteOrder.BIG_ENDIAN);
        buf.putLong(index + 8, sequence, ByteOrder.BIG_ENDIAN);
        buf.putLong(index + 16, sendTimeNanos, ByteOrder.BIG_ENDIAN);
        buf.putInt(index + 24, phase, ByteOrder.BIG_ENDIAN);
        buf.putInt(index + 28, 0, ByteOrder.BIG_ENDIAN);
    }

    /**
     * @param buf a buffer holding a received datagram or frame payload at {@code index}
     * @param index where the payload starts
     * @param length bytes of payload available from {@code index}
     * @param streamId the stream expected
     * @return as {@link #matches(ByteBuffer, int, int)}
     */
    public static boolean matches(DirectBuffer buf, int index, int length, int streamId) {
        return length >= BYTES && buf.getInt(index, ByteOrder.BIG_ENDIAN) == MAGIC
                && buf.getInt(index + 4, ByteOrder.BIG_ENDIAN) == streamId
                && Integer.compareUnsigned(buf.getInt(index + 24, ByteOrder.BIG_ENDIAN), PHASES) < 0;
    }

    /** @return the phase of a header at {@code index} that {@link #matches(DirectBuffer, int, int, int) matches} */
    public static int phase(DirectBuffer buf, int index) {
        return buf.getInt(index + 24, ByteOrder.BIG_ENDIAN);
    }

    /** @return the sequence number of a header at {@code index} that matches */
    public static long sequence(DirectBuffer buf, int index) {
        return buf.getLong(index + 8, ByteOrder.BIG_ENDIAN);
    }

    /** @return the send time (ns) of a header at {@code index} that matches */
    public static long sendTime(DirectBuffer buf, int index) {
        return buf.getLong(index + 16, ByteOrder.BIG_ENDIAN);
    }
}
