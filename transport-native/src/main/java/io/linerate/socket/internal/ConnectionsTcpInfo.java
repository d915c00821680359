package io.linerate.socket.internal;

import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.TcpInfoReader;

/**
 * The {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) of a native server's connections, read
 * by descriptor with {@code getsockopt(TCP_INFO)} as each one ends ({@link #record}), summed as
 * {@link io.linerate.core.spi.ends.RrServerEnd#tcpInfo()} describes: retransmits over all the
 * connections, the other figures the first connection's. A connection's window is its life. Not
 * thread-safe: the server's thread records, and another reads {@link #end} once that thread has
 * ended (a join orders the two).
 */
final class ConnectionsTcpInfo {
    private final String source;
    private final String refusal;
    private final TcpInfoReader reader = new TcpInfoReader();
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
        try {
            reader.read(fd);
        } catch (NativeSocketException e) {
            failure = e.getMessage();
            return;
        }
        long retrans = reader.totalRetrans();
        if (retrans < 0) {
            failure = "the kernel's tcp_info holds no tcpi_total_retrans";
            return;
        }
        total += retrans;
        if (first == null) {
            long mss = reader.sndMss();
            long cwnd = reader.sndCwnd();
            first = new TcpStats(0, 0, cwnd < 0 || mss < 0 ? -1 : cwnd * mss, reader.rttMicros(), reader.rttVarMicros(),
                    reader.pacingRate(), reader.deliveryRate(), mss, reader.rcvMss());
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
}
