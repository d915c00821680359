package io.linerate.jni.internal;

import io.linerate.jni.LayoutCheck;
import io.linerate.jni.LayoutCheck.Field;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The JNI functions of {@code src/main/c/sockdiag.c}: a TCP connection's {@code struct tcp_info}
 * through {@code sock_diag} netlink (sock_diag(7)), and the offsets of {@code struct tcp_info}
 * (Linux {@code <linux/tcp.h>}, x86_64) the Java side reads it at, in bytes. The structure only
 * grows at its end and the kernel sends as much of it as it has, so its size is not checked.
 * Load the library with {@code Jni.LIBRARY.ensureLoaded()} first.
 */
public final class SockDiag {
    public static final int TCPI_STATE = 0;
    public static final int TCPI_SND_MSS = 16;
    public static final int TCPI_RCV_MSS = 20;
    public static final int TCPI_RTT = 68;
    public static final int TCPI_RTTVAR = 72;
    public static final int TCPI_SND_CWND = 80;
    public static final int TCPI_TOTAL_RETRANS = 100;
    public static final int TCPI_PACING_RATE = 104;
    public static final int TCPI_BYTES_ACKED = 120;
    public static final int TCPI_DELIVERY_RATE = 160;
    /** {@code AF_INET} ({@code <sys/socket.h>}). */
    public static final int AF_INET = 2;
    /** {@code AF_INET6} ({@code <sys/socket.h>}). */
    public static final int AF_INET6 = 10;

    /** Every checked value, in the order {@code sockdiag.c}'s layout function writes them. */
    public static final List<Field> FIELDS = List.of(
            new Field("offsetof(tcp_info, tcpi_state)", TCPI_STATE),
            new Field("offsetof(tcp_info, tcpi_snd_mss)", TCPI_SND_MSS),
            new Field("offsetof(tcp_info, tcpi_rcv_mss)", TCPI_RCV_MSS),
            new Field("offsetof(tcp_info, tcpi_rtt)", TCPI_RTT),
            new Field("offsetof(tcp_info, tcpi_rttvar)", TCPI_RTTVAR),
            new Field("offsetof(tcp_info, tcpi_snd_cwnd)", TCPI_SND_CWND),
            new Field("offsetof(tcp_info, tcpi_total_retrans)", TCPI_TOTAL_RETRANS),
            new Field("offsetof(tcp_info, tcpi_pacing_rate)", TCPI_PACING_RATE),
            new Field("offsetof(tcp_info, tcpi_bytes_acked)", TCPI_BYTES_ACKED),
            new Field("offsetof(tcp_info, tcpi_delivery_rate)", TCPI_DELIVERY_RATE),
            new Field("sizeof(tcp_info.tcpi_pacing_rate)", 8),
            new Field("sizeof(tcp_info.tcpi_bytes_acked)", 8),
            new Field("sizeof(tcp_info.tcpi_delivery_rate)", 8),
            new Field("AF_INET", AF_INET),
            new Field("AF_INET6", AF_INET6));

    private SockDiag() {}

    /**
     * One {@code inet_diag_req_v2} for the exact tuple, asking for {@code INET_DIAG_INFO}, on a
     * netlink socket opened for the call and closed on every path.
     *
     * @param family {@link #AF_INET} or {@link #AF_INET6}
     * @param src address of the local address's bytes, network order (4 or 16)
     * @param sport the local port
     * @param dst address of the remote address's bytes, network order (4 or 16)
     * @param dport the remote port
     * @param out where the {@code tcp_info} goes
     * @param capacity bytes at {@code out}
     * @param timeoutMillis bound on the wait for the kernel's answer ({@code SO_RCVTIMEO}), ms, above 0
     * @return bytes of {@code tcp_info} written; {@code -ENOENT} when no TCP connection has the
     *     tuple, {@code -ENODATA} when it has no {@code tcp_info}, {@code -EAGAIN} when no answer
     *     came in time, or another -errno
     */
    public static native int tcpInfo(int family, long src, int sport, long dst, int dport, long out, int capacity,
                                     int timeoutMillis);

    /** @return the address of a direct buffer */
    public static native long address(ByteBuffer directBuffer);

    /** Writes the values of {@link #FIELDS} as compiled from the headers: their count or -errno. */
    public static native int layout(long out, int capacity);

    /**
     * @return the values compiled from the headers, in the order of {@link #FIELDS}
     * @throws UnsatisfiedLinkError if the native library cannot be loaded
     */
    public static List<Integer> fromNative() {
        Jni.LIBRARY.ensureLoaded();
        return LayoutCheck.fromNative(FIELDS, (out, capacity) -> layout(address(out), capacity));
    }

    /** @return a description of every value where Java and the headers disagree; empty when all agree */
    public static List<String> mismatches() {
        return LayoutCheck.mismatches(FIELDS, fromNative());
    }
}
