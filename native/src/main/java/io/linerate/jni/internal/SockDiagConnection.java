package io.linerate.jni.internal;

import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.jni.Errno;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One connection's {@code tcp_info} through {@link SockDiag#tcpInfo}, into a direct buffer
 * allocated once: the tuple's address bytes at its start, the kernel's {@code tcp_info} after them.
 * A read allocates nothing unless it fails.
 */
public final class SockDiagConnection implements TcpConnectionInfo {
    /** Bytes offered for {@code tcp_info}; the kernel's is 232 bytes in Linux 6.x. */
    static final int CAPACITY = 512;
    private static final int SRC = 0;
    private static final int DST = 16;
    private static final int INFO = 32;

    private final ByteBuffer buf = ByteBuffer.allocateDirect(INFO + CAPACITY).order(ByteOrder.nativeOrder());
    private final ByteBuffer info;
    private final int family;
    private final int sport;
    private final int dport;
    private final long base;
    private final int timeoutMillis;
    private final String describe;
    private int length;

    /**
     * @param local resolved, with a port
     * @param remote resolved, with a port, of the same family as {@code local}
     * @param timeoutMillis bound on the wait for each answer, ms
     */
    public SockDiagConnection(InetSocketAddress local, InetSocketAddress remote, int timeoutMillis) {
        Jni.LIBRARY.ensureLoaded();
        this.family = local.getAddress() instanceof Inet4Address ? SockDiag.AF_INET : SockDiag.AF_INET6;
        this.sport = local.getPort();
        this.dport = remote.getPort();
        this.timeoutMillis = timeoutMillis;
        this.describe = "TCP " + local + " -> " + remote;
        buf.put(SRC, local.getAddress().getAddress());
        buf.put(DST, remote.getAddress().getAddress());
        this.info = buf.slice(INFO, CAPACITY).order(ByteOrder.nativeOrder());
        this.base = SockDiag.address(buf);
    }

    @Override
    public boolean read() throws IOException {
        int n = SockDiag.tcpInfo(family, base + SRC, sport, base + DST, dport, base + INFO, CAPACITY, timeoutMillis);
        if (n >= 0) {
            length = n;
            return true;
        }
        length = 0;
        if (n == -Errno.ENOENT) {
            return false;
        }
        if (n == -Errno.EAGAIN) {
            throw new IOException("sock_diag netlink did not answer for " + describe + " within " + timeoutMillis + " ms");
        }
        throw new IOException("sock_diag netlink (inet_diag_req_v2, INET_DIAG_INFO) for " + describe + " failed: "
                + Errno.describe(n));
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public long state() {
        return length > SockDiag.TCPI_STATE ? Byte.toUnsignedLong(info.get(SockDiag.TCPI_STATE)) : -1;
    }

    @Override
    public long totalRetrans() {
        return u32(SockDiag.TCPI_TOTAL_RETRANS);
    }

    @Override
    public long sndCwnd() {
        return u32(SockDiag.TCPI_SND_CWND);
    }

    @Override
    public long sndMss() {
        return u32(SockDiag.TCPI_SND_MSS);
    }

    @Override
    public long rcvMss() {
        return u32(SockDiag.TCPI_RCV_MSS);
    }

    @Override
    public long rttMicros() {
        return u32(SockDiag.TCPI_RTT);
    }

    @Override
    public long rttVarMicros() {
        return u32(SockDiag.TCPI_RTTVAR);
    }

    @Override
    public long pacingRate() {
        return u64(SockDiag.TCPI_PACING_RATE);
    }

    @Override
    public long bytesAcked() {
        return u64(SockDiag.TCPI_BYTES_ACKED);
    }

    @Override
    public long deliveryRate() {
        return u64(SockDiag.TCPI_DELIVERY_RATE);
    }

    @Override
    public String toString() {
        return describe;
    }

    private long u32(int offset) {
        return offset + 4 <= length ? Integer.toUnsignedLong(info.getInt(offset)) : -1;
    }

    private long u64(int offset) {
        if (offset + 8 > length) {
            return -1;
        }
        long v = info.getLong(offset);
        return v < 0 ? -1 : v; // ~0 is "unlimited"; no rate reaches 2^63 bytes/s
    }
}
