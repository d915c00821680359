package io.linerate.afpacket.internal;

import io.linerate.afpacket.AfPacketException;
import io.linerate.jni.Errno;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A sending AF_PACKET socket with a TPACKET_V2 TX ring ({@code <linux/if_packet.h>}) and
 * PACKET_QDISC_BYPASS. A slot is filled while its {@code tp_status} is TP_STATUS_AVAILABLE, then
 * marked TP_STATUS_SEND_REQUEST (release write); {@link #flush()} makes the kernel transmit every
 * requested slot without waiting, and the kernel hands each slot back when the frame has left.
 * Frame data starts {@value Layout#TX_DATA_OFFSET} bytes into a slot. The mapping is an Agrona
 * {@link UnsafeBuffer}: slot headers in native order, frames written with an explicit byte order.
 * Used by one thread.
 */
public final class TxRing implements AutoCloseable {
    /** The slot is free for user space. */
    public static final int TP_STATUS_AVAILABLE = 0;
    /** The slot is queued for the kernel. */
    public static final int TP_STATUS_SEND_REQUEST = 1;
    /** The kernel is sending the slot. */
    public static final int TP_STATUS_SENDING = 2;
    /** The kernel refused the slot's contents. */
    public static final int TP_STATUS_WRONG_FORMAT = 4;

    private final String interfaceName;
    private final int fd;
    private final long address;
    private final long length;
    private final int slotSize;
    private final int slots;
    private final UnsafeBuffer ring;
    private int current;
    private boolean closed;

    private TxRing(String interfaceName, int fd, long address, long length, int slotSize, int slots) {
        this.interfaceName = interfaceName;
        this.fd = fd;
        this.address = address;
        this.length = length;
        this.slotSize = slotSize;
        this.slots = slots;
        this.ring = new UnsafeBuffer(address, Math.toIntExact(length));
    }

    /**
     * @param frameSize the largest frame to send, bytes
     * @param minSlots at least this many slots
     * @throws AfPacketException naming the interface, the call and the errno; nothing stays open
     */
    public static TxRing open(String interfaceName, int ifindex, int frameSize, int minSlots) throws AfPacketException {
        int slot = 2048;
        while (slot < frameSize + Layout.TX_DATA_OFFSET) {
            slot <<= 1;
        }
        int block = Math.max(1 << 16, slot);
        ByteBuffer out = ByteBuffer.allocateDirect(24).order(ByteOrder.nativeOrder());
        int fd = Native.openTxRing(ifindex, slot, minSlots, block, Native.address(out));
        if (fd < 0) {
            throw new AfPacketException(interfaceName, "AF_PACKET TPACKET_V2 TX ring setup (PACKET_QDISC_BYPASS)", -fd,
                    minSlots + " slots of " + slot + " bytes", -fd == Errno.EPERM);
        }
        return new TxRing(interfaceName, fd, out.getLong(0), out.getLong(8), slot, (int) out.getLong(16));
    }

    /** @return the index of the current slot */
    public int currentSlot() {
        return current;
    }

    /** @return the number of slots */
    public int slots() {
        return slots;
    }

    /** @return the mapped ring, for writing a frame at {@link #dataOffset()} */
    public UnsafeBuffer buffer() {
        return ring;
    }

    /**
     * @return the byte offset of the current slot's frame data if the slot is free, -1 if the kernel
     *     still owns it (the ring is full)
     * @throws AfPacketException if the kernel refused the slot's previous contents
     */
    public int dataOffset() throws AfPacketException {
        int off = current * slotSize;
        int st = RingWords.acquire(ring, off + Layout.TP2_STATUS);
        if (st == TP_STATUS_AVAILABLE) {
            return off + Layout.TX_DATA_OFFSET;
        }
        if ((st & TP_STATUS_WRONG_FORMAT) != 0) {
            throw new AfPacketException(interfaceName, "PACKET_TX_RING", Errno.EINVAL, "the kernel refused a frame as malformed", false);
        }
        return -1;
    }

    /** Queues the current slot, whose frame of {@code length} bytes is written, and moves on. */
    public void request(int length) {
        int off = current * slotSize;
        ring.putInt(off + Layout.TP2_LEN, length);
        RingWords.release(ring, off + Layout.TP2_STATUS, TP_STATUS_SEND_REQUEST);
        current = current + 1 == slots ? 0 : current + 1;
    }

    /** @return bytes the kernel took, or -errno (ENOBUFS: it dropped one frame and stopped; call again) */
    public int flush() {
        return Native.flushTx(fd);
    }

    /** @return whether any slot is still queued or being sent */
    public boolean pending() {
        for (int i = 0; i < slots; i++) {
            int st = RingWords.acquire(ring, i * slotSize + Layout.TP2_STATUS);
            if ((st & (TP_STATUS_SEND_REQUEST | TP_STATUS_SENDING)) != 0) {
                return true;
            }
        }
        return false;
    }


    /** Unmaps the ring and closes the socket; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Native.unmap(address, length);
        Native.close(fd);
    }
}
