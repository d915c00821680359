package io.linerate.afpacket.internal;

import io.linerate.afpacket.AfPacketException;
import io.linerate.jni.Errno;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A receiving AF_PACKET socket with a TPACKET_V3 ring for one ethertype (layout from
 * {@code <linux/if_packet.h>}, see {@link Layout}), read through an Agrona {@link UnsafeBuffer}
 * over the mapping: the kernel's headers in native order at their {@link Layout} offsets, frame
 * contents with an explicit byte order. Blocks are handed back and forth through their
 * {@code block_status} word with acquire/release ordering ({@link RingWords}). Used by one thread
 * at a time; closing unmaps the ring and closes the socket.
 */
public final class RxRing implements AutoCloseable {
    /** TP_STATUS_KERNEL: the kernel owns the block. */
    public static final int TP_STATUS_KERNEL = 0;
    /** TP_STATUS_USER: the block is ours to read. */
    public static final int TP_STATUS_USER = 1;
    /** TP_STATUS_TS_SOFTWARE: the frame's stamp was taken in software on receive. */
    public static final int TP_STATUS_TS_SOFTWARE = 1 << 29;
    /** TP_STATUS_TS_RAW_HARDWARE: the frame's stamp came from the NIC. */
    public static final int TP_STATUS_TS_RAW_HARDWARE = 1 << 31;

    private final String interfaceName;
    private final int fd;
    private final long ringAddress;
    private final long ringLength;
    private final int blockSize;
    private final int blockCount;
    private final UnsafeBuffer ring;
    private final ByteBuffer stats = ByteBuffer.allocateDirect(Layout.STATS_V3_SIZE).order(ByteOrder.nativeOrder());
    private final long statsAddress;
    private int current;
    private boolean closed;

    private RxRing(String interfaceName, int fd, long addr, long len, int blockSize, int blockCount) {
        this.interfaceName = interfaceName;
        this.fd = fd;
        this.ringAddress = addr;
        this.ringLength = len;
        this.blockSize = blockSize;
        this.blockCount = blockCount;
        this.ring = new UnsafeBuffer(addr, Math.toIntExact(len));
        this.statsAddress = Native.address(stats);
    }

    /**
     * Opens the socket, sets up and maps the ring, and binds to the ethertype on the interface,
     * in that order (frames only flow once the ring is ready).
     *
     * @param retireMs block retire timeout, so a partly filled block reaches the reader in bounded time
     * @param hardwareStamps whether to ask for raw hardware stamps besides software ones
     * @throws AfPacketException naming the interface, the call and the errno; nothing stays open
     */
    public static RxRing open(String interfaceName, int ifindex, int etherType, int blockSize, int blockCount,
                              int frameSize, int retireMs, boolean hardwareStamps) throws AfPacketException {
        ByteBuffer out = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
        int fd = Native.openRx(ifindex, etherType, blockSize, blockCount, frameSize, retireMs, hardwareStamps ? 1 : 0,
                Native.address(out));
        if (fd < 0) {
            throw new AfPacketException(interfaceName, "AF_PACKET TPACKET_V3 RX ring setup", -fd,
                    String.format(java.util.Locale.ROOT, "ethertype 0x%04x, %d blocks of %d bytes", etherType, blockCount, blockSize),
                    -fd == Errno.EPERM);
        }
        return new RxRing(interfaceName, fd, out.getLong(0), out.getLong(8), blockSize, blockCount);
    }

    /** @return the mapped ring: block and frame headers in native order, frames at their {@code tp_mac} offsets */
    public UnsafeBuffer buffer() {
        return ring;
    }

    /** @return the socket descriptor, for poll */
    public int fd() {
        return fd;
    }

    /** @return the byte offset of the current block in the ring */
    public int blockOffset() {
        return current * blockSize;
    }

    /** @return whether the current block has been handed to user space (acquire read) */
    public boolean blockReady() {
        return (RingWords.acquire(ring, current * blockSize + Layout.BLOCK_STATUS) & TP_STATUS_USER) != 0;
    }

    /** Hands the current block back to the kernel (release write) and moves to the next one. */
    public void releaseBlock() {
        RingWords.release(ring, current * blockSize + Layout.BLOCK_STATUS, TP_STATUS_KERNEL);
        current = current + 1 == blockCount ? 0 : current + 1;
    }

    /**
     * Reads PACKET_STATISTICS, which the kernel resets on every read, into {@code into}: adds
     * tp_packets (drops included) to {@code into[0]} and tp_drops to {@code into[1]}.
     */
    public void accumulateStatistics(long[] into) throws AfPacketException {
        int rc = Native.packetStats(fd, statsAddress);
        if (rc < 0) {
            throw new AfPacketException(interfaceName, "getsockopt(PACKET_STATISTICS)", -rc);
        }
        into[0] += Integer.toUnsignedLong(stats.getInt(0));
        into[1] += Integer.toUnsignedLong(stats.getInt(4));
    }

    /** @return the socket's pending error as a positive errno, 0 if none */
    public int pendingError() {
        int rc = Native.socketError(fd);
        return rc < 0 ? -rc : rc;
    }


    /** Unmaps the ring and closes the socket; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Native.unmap(ringAddress, ringLength);
        Native.close(fd);
    }
}
