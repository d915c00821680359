package io.linerate.socket;

import io.linerate.core.AddressFamily;
import io.linerate.socket.internal.Layout;
import io.linerate.socket.internal.Sockets;

/**
 * The options of one {@link NativeSocket} ({@link NativeSocket#options()}): buffers, TCP_NODELAY,
 * the traffic class, TCP_MAXSEG and UDP GSO/GRO, each through setsockopt(2) or getsockopt(2).
 * Every failure is a {@link NativeSocketException} naming the option, the value and the errno.
 */
public final class SocketOptions {
    private final int fd;
    private final AddressFamily family;

    SocketOptions(int fd, AddressFamily family) {
        this.fd = fd;
        this.family = family;
    }

    /** setsockopt(SOL_SOCKET, SO_SNDBUF), bytes; the kernel doubles it (socket(7)). */
    public void sendBuffer(int bytes) throws NativeSocketException {
        set(Layout.SOL_SOCKET, Layout.SO_SNDBUF, bytes, "SO_SNDBUF");
    }

    /** @return getsockopt(SO_SNDBUF): the send buffer in bytes as the kernel holds it (twice what was set) */
    public int sendBuffer() throws NativeSocketException {
        return get(Layout.SOL_SOCKET, Layout.SO_SNDBUF, "SO_SNDBUF");
    }

    /** setsockopt(SOL_SOCKET, SO_RCVBUF), bytes; set it on a listening socket for window scaling. */
    public void receiveBuffer(int bytes) throws NativeSocketException {
        set(Layout.SOL_SOCKET, Layout.SO_RCVBUF, bytes, "SO_RCVBUF");
    }

    /** @return getsockopt(SO_RCVBUF): the receive buffer in bytes as the kernel holds it */
    public int receiveBuffer() throws NativeSocketException {
        return get(Layout.SOL_SOCKET, Layout.SO_RCVBUF, "SO_RCVBUF");
    }

    /** setsockopt(IPPROTO_TCP, TCP_NODELAY). */
    public void noDelay(boolean on) throws NativeSocketException {
        set(Layout.IPPROTO_TCP, Layout.TCP_NODELAY, on ? 1 : 0, "TCP_NODELAY");
    }

    /** @return getsockopt(TCP_NODELAY) */
    public boolean noDelay() throws NativeSocketException {
        return get(Layout.IPPROTO_TCP, Layout.TCP_NODELAY, "TCP_NODELAY") != 0;
    }

    /** IP_TOS (IPv4) or IPV6_TCLASS (IPv6): the traffic class byte, 0..255. */
    public void trafficClass(int value) throws NativeSocketException {
        if (family == AddressFamily.IPV6) {
            set(Layout.IPPROTO_IPV6, Layout.IPV6_TCLASS, value, "IPV6_TCLASS");
        } else {
            set(Layout.IPPROTO_IP, Layout.IP_TOS, value, "IP_TOS");
        }
    }

    /** @return IP_TOS or IPV6_TCLASS read back */
    public int trafficClass() throws NativeSocketException {
        return family == AddressFamily.IPV6 ? get(Layout.IPPROTO_IPV6, Layout.IPV6_TCLASS, "IPV6_TCLASS")
                : get(Layout.IPPROTO_IP, Layout.IP_TOS, "IP_TOS");
    }

    /**
     * setsockopt(TCP_MAXSEG): before connect or listen, bounds the MSS this end announces and uses
     * (tcp(7)), bytes.
     */
    public void maxSegment(int bytes) throws NativeSocketException {
        set(Layout.IPPROTO_TCP, Layout.TCP_MAXSEG, bytes, "TCP_MAXSEG");
    }

    /**
     * @return getsockopt(TCP_MAXSEG): on a connected socket, the MSS this end sends with, bytes
     *     (tcp(7); the kernel's {@code tcp_current_mss}, options excluded)
     */
    public int maxSegment() throws NativeSocketException {
        return get(Layout.IPPROTO_TCP, Layout.TCP_MAXSEG, "TCP_MAXSEG");
    }

    /**
     * setsockopt(SOL_UDP, UDP_SEGMENT) (udp(7), Linux 4.18+): every send of more than
     * {@code bytes} bytes leaves as segments of {@code bytes} bytes (the last may be shorter),
     * each its own datagram on the wire (generic segmentation offload).
     *
     * @param bytes the segment size, bytes
     * @throws NativeSocketException naming the option and the errno (ENOPROTOOPT on a kernel
     *     without it, EINVAL for a size out of range)
     */
    public void udpSegment(int bytes) throws NativeSocketException {
        set(Layout.IPPROTO_UDP, Layout.UDP_SEGMENT, bytes, "UDP_SEGMENT");
    }

    /**
     * setsockopt(SOL_UDP, UDP_GRO, 1) (udp(7), Linux 5.0+): the socket takes several datagrams of
     * one flow coalesced into one receive, with a control message holding the segment size.
     *
     * @throws NativeSocketException naming the option and the errno (ENOPROTOOPT on a kernel without it)
     */
    public void udpGro() throws NativeSocketException {
        set(Layout.IPPROTO_UDP, Layout.UDP_GRO, 1, "UDP_GRO");
    }

    private void set(int level, int name, int value, String what) throws NativeSocketException {
        NativeSocket.check(Sockets.setInt(fd, level, name, value), "setsockopt(fd " + fd + ", " + what + ", " + value + ")");
    }

    private int get(int level, int name, String what) throws NativeSocketException {
        return NativeSocket.check(Sockets.getInt(fd, level, name), "getsockopt(fd " + fd + ", " + what + ")");
    }
}
