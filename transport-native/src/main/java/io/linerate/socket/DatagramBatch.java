package io.linerate.socket;

import io.linerate.jni.Errno;
import io.linerate.socket.internal.Sockets;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Slots for UDP datagrams moved in batches by {@code sendmmsg(2)} and {@code recvmmsg(2)}: one
 * direct buffer of {@link #slots()} slots of {@link #slotBytes()} bytes each, and native arrays of
 * each slot's length and {@code UDP_GRO} segment size, all allocated here, once, so that
 * {@link #send} and {@link #receive} allocate nothing. Slot i starts at index
 * {@code i × slotBytes} of {@link #data()}. One thread uses a batch at a time.
 */
public final class DatagramBatch {
    /** The most slots: {@code UIO_MAXIOV}, as {@code sendmmsg(2)} moves at most per call. */
    public static final int MAX_SLOTS = 1024;

    private final int slots;
    private final int slotBytes;
    private final ByteBuffer data;
    private final ByteBuffer lengths;
    private final ByteBuffer segmentSizes;
    private final long dataAddress;
    private final long lengthsAddress;
    private final long segmentSizesAddress;

    /**
     * @param slots messages per call, 1..{@value #MAX_SLOTS}
     * @param slotBytes bytes per slot, 1..65536: the largest message a slot holds
     * @throws IllegalArgumentException naming a value out of range
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    public DatagramBatch(int slots, int slotBytes) {
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("batch of " + slots + " slots is out of range; allowed: 1.." + MAX_SLOTS);
        }
        if (slotBytes < 1 || slotBytes > 65536) {
            throw new IllegalArgumentException("slot of " + slotBytes + " bytes is out of range; allowed: 1..65536");
        }
        this.slots = slots;
        this.slotBytes = slotBytes;
        this.data = ByteBuffer.allocateDirect(slots * slotBytes);
        this.lengths = ByteBuffer.allocateDirect(slots * Integer.BYTES).order(ByteOrder.nativeOrder());
        this.segmentSizes = ByteBuffer.allocateDirect(slots * Integer.BYTES).order(ByteOrder.nativeOrder());
        this.dataAddress = NativeSocket.address(data);
        this.lengthsAddress = NativeSocket.address(lengths);
        this.segmentSizesAddress = NativeSocket.address(segmentSizes);
    }

    /** @return the number of slots */
    public int slots() {
        return slots;
    }

    /** @return bytes per slot */
    public int slotBytes() {
        return slotBytes;
    }

    /** @return the slots' bytes; slot i starts at index {@code i × slotBytes}; big-endian, as allocated */
    public ByteBuffer data() {
        return data;
    }

    /** @return the length of slot i's message, bytes: set before {@link #send}, read after {@link #receive} */
    public int length(int slot) {
        return lengths.getInt(slot * Integer.BYTES);
    }

    /** Sets the length of slot i's message for {@link #send}, 0..{@link #slotBytes()} bytes. */
    public void length(int slot, int bytes) {
        lengths.putInt(slot * Integer.BYTES, bytes);
    }

    /**
     * @return after {@link #receive}, the segment size of slot i's message from its {@code UDP_GRO}
     *     control message, bytes: 0 for a single datagram (no control message), -1 for a message
     *     cut to its slot ({@code MSG_TRUNC})
     */
    public int segmentSize(int slot) {
        return segmentSizes.getInt(slot * Integer.BYTES);
    }

    /**
     * {@code sendmmsg(2)} of the messages in slots {@code first .. first + count − 1} (their
     * {@link #length(int, int) lengths} set), waiting up to {@code pollMillis} for room.
     *
     * @return messages the kernel accepted, from slot {@code first} on, 1..count; or
     *     {@link NativeSocket#WAIT_RAN_OUT}
     * @throws NativeSocketException naming sendmmsg(2) and the errno (ECONNREFUSED, EINVAL for a
     *     segment size the path refuses, ...)
     * @throws IllegalArgumentException for slots out of range
     */
    public int send(NativeSocket socket, int first, int count, int pollMillis) throws NativeSocketException {
        if (first < 0 || count < 1 || first + count > slots) {
            throw new IllegalArgumentException("slots " + first + ".." + (first + count - 1)
                    + " are out of range; allowed: 0.." + (slots - 1));
        }
        int n = Sockets.sendBatch(socket.fd(), dataAddress + (long) first * slotBytes, slotBytes,
                lengthsAddress + (long) first * Integer.BYTES, count, pollMillis);
        if (n > 0) {
            return n;
        }
        if (n == -Errno.EAGAIN || n == 0) {
            return NativeSocket.WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("sendmmsg(fd " + socket.fd() + ", " + count + " messages)", n);
    }

    /**
     * {@code recvmmsg(2)} of up to {@link #slots()} messages into the slots from 0 on, waiting up
     * to {@code pollMillis} for data; each one's {@link #length(int)} and {@link #segmentSize} are
     * set.
     *
     * @return messages received, 1..slots; or {@link NativeSocket#WAIT_RAN_OUT}
     * @throws NativeSocketException naming recvmmsg(2) and the errno
     */
    public int receive(NativeSocket socket, int pollMillis) throws NativeSocketException {
        int n = Sockets.recvBatch(socket.fd(), dataAddress, slotBytes, slots, lengthsAddress, segmentSizesAddress,
                pollMillis);
        if (n > 0) {
            return n;
        }
        if (n == -Errno.EAGAIN || n == 0) {
            return NativeSocket.WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("recvmmsg(fd " + socket.fd() + ", " + slots + " slots)", n);
    }
}
