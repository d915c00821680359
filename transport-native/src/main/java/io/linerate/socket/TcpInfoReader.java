package io.linerate.socket;

import io.linerate.socket.internal.Layout;
import io.linerate.socket.internal.Sockets;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A reused holder of one {@code struct tcp_info} (Linux {@code <linux/tcp.h>}): {@link #read}
 * copies the kernel's current values into its direct buffer, and the getters decode them, without
 * allocating, so a sampling loop can call both as often as it likes. Not thread-safe: one reader
 * per thread. {@link #snapshot()} copies the values into a {@link TcpInfo}. A field beyond what the
 * kernel wrote (an older kernel's shorter structure), or any before the first read, is -1.
 */
public final class TcpInfoReader {
    /** Bytes offered to the kernel; it writes {@code min(this, its sizeof(struct tcp_info))}. */
    static final int CAPACITY = 512;

    private final ByteBuffer buf = ByteBuffer.allocateDirect(CAPACITY).order(ByteOrder.nativeOrder());
    private final long address;
    private int length;

    /** @throws UnsatisfiedLinkError naming the cause when {@code liblinerate-socket.so} cannot be loaded */
    public TcpInfoReader() {
        Sockets.LIBRARY.ensureLoaded();
        address = Sockets.address(buf);
    }

    /**
     * Reads the socket's {@code tcp_info} into this holder.
     *
     * @param socket an open TCP socket
     * @return this
     * @throws NativeSocketException naming {@code getsockopt(TCP_INFO)} and the errno when it fails
     */
    public TcpInfoReader read(NativeSocket socket) throws NativeSocketException {
        return read(socket.fd());
    }

    /**
     * Reads a TCP socket descriptor's {@code tcp_info} into this holder; allocates nothing.
     *
     * @param fd an open TCP socket's descriptor
     * @return this
     * @throws NativeSocketException naming {@code getsockopt(TCP_INFO)} and the errno when it fails
     */
    public TcpInfoReader read(int fd) throws NativeSocketException {
        int n = Sockets.tcpInfo(fd, address, CAPACITY);
        if (n < 0) {
            throw NativeSocketException.of("getsockopt(fd " + fd + ", TCP_INFO)", n);
        }
        length = n;
        return this;
    }

    /** @return bytes the kernel wrote at the last {@link #read}; 0 before the first */
    public int length() {
        return length;
    }

    /** @return {@code tcpi_total_retrans}: segments retransmitted over the connection's life */
    public long totalRetrans() {
        return u32(Layout.TCPI_TOTAL_RETRANS);
    }

    /** @return {@code tcpi_snd_cwnd}, segments */
    public long sndCwnd() {
        return u32(Layout.TCPI_SND_CWND);
    }

    /** @return {@code tcpi_snd_mss}, bytes */
    public long sndMss() {
        return u32(Layout.TCPI_SND_MSS);
    }

    /** @return {@code tcpi_rcv_mss}, bytes */
    public long rcvMss() {
        return u32(Layout.TCPI_RCV_MSS);
    }

    /** @return {@code tcpi_rtt}: the smoothed RTT, µs */
    public long rttMicros() {
        return u32(Layout.TCPI_RTT);
    }

    /** @return {@code tcpi_rttvar}: the RTT's mean deviation, µs */
    public long rttVarMicros() {
        return u32(Layout.TCPI_RTTVAR);
    }

    /** @return {@code tcpi_pacing_rate}, bytes/s; -1 when unlimited (the kernel's {@code ~0}) or not written */
    public long pacingRate() {
        return u64(Layout.TCPI_PACING_RATE);
    }

    /** @return {@code tcpi_bytes_acked}, bytes; -1 when not written */
    public long bytesAcked() {
        return u64(Layout.TCPI_BYTES_ACKED);
    }

    /** @return {@code tcpi_delivery_rate}, bytes/s; -1 when the kernel's structure does not hold it */
    public long deliveryRate() {
        return u64(Layout.TCPI_DELIVERY_RATE);
    }

    /** @return the values of the last {@link #read} as a record (allocates) */
    public TcpInfo snapshot() {
        return new TcpInfo(totalRetrans(), sndCwnd(), sndMss(), rcvMss(), rttMicros(), rttVarMicros(), pacingRate(),
                bytesAcked(), deliveryRate());
    }

    private long u32(int offset) {
        return offset + 4 <= length ? Integer.toUnsignedLong(buf.getInt(offset)) : -1;
    }

    private long u64(int offset) {
        if (offset + 8 > length) {
            return -1;
        }
        long v = buf.getLong(offset);
        return v < 0 ? -1 : v; // ~0 is "unlimited"; no rate reaches 2^63 bytes/s
    }
}
