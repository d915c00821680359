package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import io.linerate.nio.PathFacts;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.util.Optional;

/**
 * The defaults of iperf3 3.12's client that differ from linerate's, for {@code stream -c HOST}
 * (from iperf3's {@code iperf.h}, {@code iperf_api.c} and {@code iperf_client_api.c}, and
 * {@code iperf3(1)}).
 */
final class Iperf3Defaults {
    /** iperf3's server port: 5201. */
    static final int PORT = 5201;
    /**
     * iperf3's UDP rate per stream when {@code -b} is not given, bits/s: its {@code UDP_RATE},
     * {@code 1024 * 1024} = 1048576, which its manual calls "1 Mbit/sec".
     */
    static final long UDP_RATE_BITS_PER_SECOND = 1024 * 1024;
    /** iperf3's UDP datagram length when it knows no MSS, bytes: its {@code DEFAULT_UDP_BLKSIZE}, 1460. */
    static final int UDP_LENGTH_WITHOUT_MSS = 1460;
    /** iperf3's longest TCP write ({@code -l}), bytes: its {@code MAX_BLOCKSIZE}, 1 MiB. */
    static final int MAX_TCP_LENGTH = 1 << 20;
    /** iperf3's IP_TOS: 0 (linerate's own default is {@link io.linerate.core.TransferSpec#DEFAULT_TRAFFIC_CLASS}). */
    static final int TRAFFIC_CLASS = 0;

    private Iperf3Defaults() {}

    /**
     * iperf3's UDP datagram length when {@code -l} is not given, bytes, payload and iperf3's header.
     * iperf3 takes the MSS of its TCP control connection ({@code TCP_MAXSEG}), else 1460. The JDK
     * cannot read {@code TCP_MAXSEG}, so linerate derives the MSS ({@link TcpMss}) from the MTU of
     * the interface its route to the server leaves by: the same on a path whose MSS the MTU sets
     * (1448 at MTU 1500 with TCP timestamps). Linux also bounds its MSS by half the peer's largest
     * window for a while, so on loopback (MTU 65536) iperf3 reads a smaller MSS (32768 on Linux 6)
     * than the 65483 derived.
     *
     * @param server the server's address; empty when it did not resolve
     * @param port the server's port, 1..65535
     * @return the length and how it was found
     */
    static Length udpLength(Optional<InetAddress> server, int port) {
        if (server.isEmpty()) {
            return new Length(UDP_LENGTH_WITHOUT_MSS, "the server's host did not resolve, so no MSS: iperf3's "
                    + UDP_LENGTH_WITHOUT_MSS + " B");
        }
        boolean v6 = server.get() instanceof Inet6Address;
        AddressFamily family = v6 ? AddressFamily.IPV6 : AddressFamily.IPV4;
        try (DatagramChannel d = DatagramChannel.open(v6 ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET)) {
            d.connect(new InetSocketAddress(server.get(), port)); // picks the route; sends nothing
            InetAddress local = ((InetSocketAddress) d.getLocalAddress()).getAddress();
            Optional<TcpMss> mss = PathFacts.tcpMss(family, local);
            if (mss.isPresent()) {
                return new Length(mss.get().bytes(), "the path's TCP MSS, as iperf3's (" + mss.get().derivation() + ")");
            }
            return new Length(UDP_LENGTH_WITHOUT_MSS, "the MTU toward the server cannot be read, so no MSS: iperf3's "
                    + UDP_LENGTH_WITHOUT_MSS + " B");
        } catch (IOException e) {
            return new Length(UDP_LENGTH_WITHOUT_MSS, "no route to the server (" + e.getMessage() + "), so no MSS: "
                    + "iperf3's " + UDP_LENGTH_WITHOUT_MSS + " B");
        }
    }

    /**
     * @param bytes the datagram length, bytes
     * @param source how it was found, for the run's header
     */
    record Length(int bytes, String source) {}
}
