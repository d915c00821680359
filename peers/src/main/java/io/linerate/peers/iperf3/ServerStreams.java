package io.linerate.peers.iperf3;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;

/** The server's side of an iperf3 test's data streams: each stream's id, role, budget and socket. */
final class ServerStreams {
    private ServerStreams() {}

    /**
     * Opens stream {@code i} in arrival order. iperf3 numbers streams 1, 3, 4, ...; in a
     * bidirectional test the client's senders come first. What fails closes the arrival's socket.
     *
     * @param port the server's port, which a UDP stream's socket binds too (iperf3's UDP streams share it)
     * @param arrival an accepted TCP data connection ({@link BoundedChannel}) or the address a UDP
     *     connect message came from
     */
    static DataStream open(Iperf3TestParams params, Iperf3ServerConfig config, int port, int i, Object arrival)
            throws IOException {
        int id = i == 0 ? 1 : i + 2;
        boolean send = params.bidirectional() ? i >= params.parallel() : params.reverse();
        int k = params.bidirectional() ? i % params.parallel() : i;
        long bytes = send ? Iperf3Wire.share(params.bytes(), params.parallel(), k) : 0;
        long blocks = send ? Iperf3Wire.share(params.blocks(), params.parallel(), k) : 0;
        Pace pace = Pace.ofClient(send ? params.rateBitsPerSecond() : 0, params.pacingTimerMicros());
        if (arrival instanceof BoundedChannel ch) {
            try {
                if (params.window() > 0) {
                    ch.channel().setOption(StandardSocketOptions.SO_SNDBUF, params.window());
                    ch.channel().setOption(StandardSocketOptions.SO_RCVBUF, params.window());
                }
                return DataStream.acceptedTcp(id, ch, send, params.length(), bytes, blocks, pace, config.ioTimeout());
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        }
        InetSocketAddress from = (InetSocketAddress) arrival;
        DatagramChannel d = DatagramChannel.open(config.bind() instanceof Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
        try {
            d.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (params.window() > 0) {
                d.setOption(StandardSocketOptions.SO_SNDBUF, params.window());
                d.setOption(StandardSocketOptions.SO_RCVBUF, params.window());
            }
            d.bind(new InetSocketAddress(config.bind(), port));
            d.connect(from);
            ByteBuffer reply = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, Iperf3Wire.UDP_CONNECT_REPLY);
            d.write(reply);
            return DataStream.acceptedUdp(id, d, send, params.counters64(), params.length(), bytes, blocks, pace,
                    config.ioTimeout());
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
    }
}
