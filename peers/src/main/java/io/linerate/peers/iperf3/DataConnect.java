package io.linerate.peers.iperf3;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;

/**
 * The client's side of opening an iperf3 data connection for a {@link DataStream}: the socket
 * options asked for, then for TCP the connect and the session cookie, for UDP iperf3's connect
 * message and the wait for the server's reply. Every wait is bounded by the I/O timeout.
 */
final class DataConnect {
    /** Datagrams skipped, at most, while waiting for the UDP connect reply. */
    private static final int MAX_DATAGRAMS_BEFORE_REPLY = 64;

    private DataConnect() {}

    /** Connects a TCP stream ({@link #tcp}) for a {@link DataStream}. */
    static DataStream tcpStream(int id, InetSocketAddress to, byte[] cookie, boolean sender, int payload, long budgetBytes,
                                long budgetMessages, Pace pace, Duration ioTimeout, int sndbuf, int rcvbuf, boolean noDelay,
                                int trafficClass) throws IOException {
        BoundedChannel ch = tcp(to, cookie, ioTimeout, sndbuf, rcvbuf, noDelay, trafficClass);
        try {
            return new DataStream(id, false, sender, false, ch, null, null, payload, budgetBytes, budgetMessages, pace, ioTimeout);
        } catch (RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Opens a UDP stream for a {@link DataStream}: sends iperf3's connect message and waits for the
     * server's reply ({@link #udpHandshake}).
     */
    static DataStream udpStream(int id, InetSocketAddress to, boolean sender, boolean counters64, int payload, long budgetBytes,
                                long budgetMessages, Pace pace, Duration ioTimeout, int sndbuf, int rcvbuf, int trafficClass)
            throws IOException {
        DatagramChannel ch = DatagramChannel.open(to.getAddress() instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        Selector sel = null;
        try {
            udpOptions(ch, sndbuf, rcvbuf, trafficClass);
            ch.configureBlocking(false);
            ch.connect(to);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            udpHandshake(ch, sel, ioTimeout);
            return new DataStream(id, true, sender, counters64, null, ch, sel, payload, budgetBytes,
                    budgetMessages, pace, ioTimeout);
        } catch (IOException | RuntimeException e) {
            ch.close();
            if (sel != null) {
                sel.close();
            }
            throw e;
        }
    }

    /**
     * Connects a TCP data connection, applies the options and sends the cookie on it.
     *
     * @return the connected channel
     * @throws IOException when the connect or the cookie's write fails or times out (nothing is
     *     left open)
     */
    static BoundedChannel tcp(InetSocketAddress to, byte[] cookie, Duration ioTimeout, int sndbuf, int rcvbuf,
                              boolean noDelay, int trafficClass) throws IOException {
        BoundedChannel ch = BoundedChannel.connect(to, ioTimeout);
        try {
            ch.channel().setOption(StandardSocketOptions.IP_TOS, trafficClass);
            if (sndbuf > 0) {
                ch.channel().setOption(StandardSocketOptions.SO_SNDBUF, sndbuf);
            }
            if (rcvbuf > 0) {
                ch.channel().setOption(StandardSocketOptions.SO_RCVBUF, rcvbuf);
            }
            ch.channel().setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
            ch.writeFully(ByteBuffer.wrap(cookie));
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /** Applies the traffic class and, where given (above 0), the buffer sizes to a UDP socket. */
    static void udpOptions(DatagramChannel ch, int sndbuf, int rcvbuf, int trafficClass) throws IOException {
        ch.setOption(StandardSocketOptions.IP_TOS, trafficClass);
        if (sndbuf > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, sndbuf);
        }
        if (rcvbuf > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, rcvbuf);
        }
    }

    /**
     * Sends iperf3's UDP connect message and waits for the server's 4-byte reply. In reverse mode a
     * few data datagrams may come before the reply; up to 64 are skipped.
     *
     * @param ch a connected, non-blocking channel
     * @param sel a selector {@code ch} is registered with for reads
     * @throws SocketTimeoutException when no reply comes within the I/O timeout
     * @throws IOException when none is among the first 64 datagrams, or the socket fails
     */
    static void udpHandshake(DatagramChannel ch, Selector sel, Duration ioTimeout) throws IOException {
        ch.write(Iperf3Wire.udpConnectMessage());
        ByteBuffer reply = ByteBuffer.allocate(65536);
        long deadline = System.nanoTime() + ioTimeout.toNanos();
        for (int seen = 0; seen < MAX_DATAGRAMS_BEFORE_REPLY; ) {
            reply.clear();
            if (ch.read(reply) > 0) {
                seen++;
                if (reply.position() == 4 && Iperf3Wire.isUdpConnectReply(reply)) {
                    return;
                }
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("no UDP connect reply within " + ioTimeout.toMillis() + " ms (the I/O timeout)");
            }
            sel.selectedKeys().clear();
            sel.select(Math.max(1, left / 1_000_000));
        }
        throw new IOException("no UDP connect reply among the first 64 datagrams");
    }
}
