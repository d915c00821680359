package io.linerate.socket.internal;

import io.linerate.jni.LayoutCheck;
import io.linerate.jni.LayoutCheck.Field;
import java.util.List;

/**
 * The offsets of {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) and the socket option
 * constants ({@code <sys/socket.h>}, {@code <netinet/in.h>}, {@code <linux/tcp.h>}, {@code <netinet/udp.h>}, {@code <poll.h>}) the Java side
 * uses, in bytes or as the numbers the kernel takes, for x86_64 Linux. {@code struct tcp_info}
 * only grows at its end (its size differs between kernel versions, so it is not checked), and the
 * kernel writes as much of it as it has. {@link #mismatches()}
 * compares them with the values {@code socket.c} was compiled with ({@link LayoutCheck}).
 */
public final class Layout {
    public static final int TCPI_SND_MSS = 16;
    public static final int TCPI_RCV_MSS = 20;
    public static final int TCPI_RTT = 68;
    public static final int TCPI_RTTVAR = 72;
    public static final int TCPI_SND_CWND = 80;
    public static final int TCPI_TOTAL_RETRANS = 100;
    public static final int TCPI_PACING_RATE = 104;
    public static final int TCPI_BYTES_ACKED = 120;
    public static final int TCPI_DELIVERY_RATE = 160;

    public static final int SOL_SOCKET = 1;
    public static final int SO_SNDBUF = 7;
    public static final int SO_RCVBUF = 8;
    public static final int SO_REUSEADDR = 2;
    public static final int IPPROTO_TCP = 6;
    public static final int TCP_NODELAY = 1;
    public static final int TCP_MAXSEG = 2;
    public static final int IPPROTO_IP = 0;
    public static final int IP_TOS = 1;
    public static final int IPPROTO_IPV6 = 41;
    public static final int IPV6_TCLASS = 67;
    public static final int SHUT_WR = 1;
    public static final int POLLIN = 0x1;
    public static final int POLLOUT = 0x4;
    public static final int POLLERR = 0x8;
    public static final int POLLHUP = 0x10;
    public static final int IPPROTO_UDP = 17;
    public static final int UDP_SEGMENT = 103;
    public static final int UDP_GRO = 104;

    /** Every checked value, in the order {@code socket.c}'s layout function writes them. */
    public static final List<Field> FIELDS = List.of(
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
            new Field("sizeof(tcp_info.tcpi_delivery_rate)", 8),
            new Field("SOL_SOCKET", SOL_SOCKET),
            new Field("SO_SNDBUF", SO_SNDBUF),
            new Field("SO_RCVBUF", SO_RCVBUF),
            new Field("SO_REUSEADDR", SO_REUSEADDR),
            new Field("IPPROTO_TCP", IPPROTO_TCP),
            new Field("TCP_NODELAY", TCP_NODELAY),
            new Field("TCP_MAXSEG", TCP_MAXSEG),
            new Field("IPPROTO_IP", IPPROTO_IP),
            new Field("IP_TOS", IP_TOS),
            new Field("IPPROTO_IPV6", IPPROTO_IPV6),
            new Field("IPV6_TCLASS", IPV6_TCLASS),
            new Field("SHUT_WR", SHUT_WR),
            new Field("POLLIN", POLLIN),
            new Field("POLLOUT", POLLOUT),
            new Field("POLLERR", POLLERR),
            new Field("POLLHUP", POLLHUP),
            new Field("IPPROTO_UDP", IPPROTO_UDP),
            new Field("UDP_SEGMENT", UDP_SEGMENT),
            new Field("UDP_GRO", UDP_GRO));

    private Layout() {}

    /**
     * @return the values compiled from the headers, in the order of {@link #FIELDS}
     * @throws UnsatisfiedLinkError if the native library cannot be loaded
     * @throws IllegalStateException if the native side lists a different number of values
     */
    public static List<Integer> fromNative() {
        Sockets.LIBRARY.ensureLoaded();
        return LayoutCheck.fromNative(FIELDS, (out, capacity) -> Sockets.layout(Sockets.address(out), capacity));
    }

    /** @return a description of every value where Java and the headers disagree; empty when all agree */
    public static List<String> mismatches() {
        return LayoutCheck.mismatches(FIELDS, fromNative());
    }
}
