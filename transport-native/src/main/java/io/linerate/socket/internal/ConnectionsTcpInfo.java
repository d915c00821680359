package io.linerate.socket.internal;

import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) of a native server's connections, read
 * by descriptor with {@code getsockopt(TCP_INFO)} as each one ends ({@link #record}), summed as
 * {@link io.linerate.core.spi.ends.RrServerEnd#tcpInfo()} describes: retransmits over all the
 * connections, the other figures the first connection's. A connection's window is its life. Not
 * thread-safe: the server's thread records, and another reads {@link #end} once that thread has
 * ended (a join orders the two).
 */
final class ConnectionsTcpInfo {
    /** Bytes offered to the kernel; it writes {@code min(this, its sizeof(struct tcp_info))}. */
    private static final int CAPACITY = 512;

    private final String source;
    private final String refusal;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(CAPACITY).order(ByteOrder.nativeOrder());
    private final long address = NativeSocket.address(buf);
    private int length;
    private long total;
    private TcpStats first;
    private String failure;

    /**
     * @param source the figures' {@link LatencyTcpInfo.End#source()}
     * @param refusal why nothing is read (such as a connection per transaction), or null to read
     */
    ConnectionsTcpInfo(String source, String refusal) {
        this.source = source;
        this.refusal = refusal;
    }

    /** Reads one connection before its descriptor is closed; allocates only for the first connection. */
    void record(int fd) {
        if (refusal != null || failure != null) {
            return;
        }
        int n = Sockets.tcpInfo(fd, address, CAPACITY);
        if (n < 0) {
            failure = NativeSocketException.of("getsockopt(fd " + fd + ", TCP_INFO)", n).getMessage();
            return;
        }
        length = n;
        long retrans = u32(Layout.TCPI_TOTAL_RETRANS);
        if (retrans < 0) {
            failure = "the kernel's tcp_info holds no tcpi_total_retrans";
            return;
        }
        total += retrans;
        if (first == null) {
            long mss = u32(Layout.TCPI_SND_MSS);
            long cwnd = u32(Layout.TCPI_SND_CWND);
            first = new TcpStats(0, 0, cwnd < 0 || mss < 0 ? -1 : cwnd * mss, u32(Layout.TCPI_RTT),
                    u32(Layout.TCPI_RTTVAR), u64(Layout.TCPI_PACING_RATE), u64(Layout.TCPI_DELIVERY_RATE), mss,
                    u32(Layout.TCPI_RCV_MSS));
        }
    }

    /** @return the connections' figures, or why there are none */
    LatencyTcpInfo.End end() {
        if (refusal != null || failure != null) {
            return LatencyTcpInfo.End.unavailable(source, refusal != null ? refusal : failure);
        }
        if (first == null) {
            return LatencyTcpInfo.End.unavailable(source, "no connection was read");
        }
        return LatencyTcpInfo.End.read(source, new TcpStats(total, total, first.cwndBytes(), first.rttMicros(),
                first.rttVarMicros(), first.pacingRate(), first.deliveryRate(), first.senderMss(), first.receiverMss()));
    }

    private long u32(int offset) {
        return offset + 4 <= length ? Integer.toUnsignedLong(buf.getInt(offset)) : -1;
    }

    private long u64(int offset) {
        if (offset + 8 > length) {
            return -1;
        }
        long v = buf.getLong(offset);
        return v < 0 ? -1 : v; // ~0 is "unlimited"
    }
}
