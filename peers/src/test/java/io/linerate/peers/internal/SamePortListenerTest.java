package io.linerate.peers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.server.AllowFrom;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Binding the TCP and UDP ports of one number together, on loopback. */
class SamePortListenerTest {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();

    @Test
    void whenTheUdpPortIsTakenTheErrorNamesToolAddressAndPortAndTheTcpPortIsReleased() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open()) {
            taken.bind(new InetSocketAddress(LO, 0));
            int p = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            Iperf2ServerConfig config = new Iperf2ServerConfig(LO, p, AllowFrom.anyone(), AgentLimits.defaults(),
                    Duration.ofSeconds(1));
            // the TCP port p binds (TCP and UDP ports are separate), then UDP port p is in use
            assertThatThrownBy(() -> SamePortListener.open(config, "iperf 2", u -> { }, LoggerFactory.getLogger("test")))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("cannot listen for iperf 2 clients on " + LO.getHostAddress() + " port " + p + ": ");
            // neither port stays open: TCP port p binds again, without SO_REUSEADDR
            try (ServerSocketChannel again = ServerSocketChannel.open()) {
                again.setOption(StandardSocketOptions.SO_REUSEADDR, false);
                again.bind(new InetSocketAddress(LO, p));
                assertThat(((InetSocketAddress) again.getLocalAddress()).getPort()).isEqualTo(p);
            }
        }
    }

    @Test
    void theUdpPortGetsTheNumberTheKernelChoseForTheTcpPort() throws Exception {
        Iperf2ServerConfig config = new Iperf2ServerConfig(LO, 0, AllowFrom.anyone(), AgentLimits.defaults(),
                Duration.ofSeconds(1));
        SamePortListener ports = SamePortListener.open(config, "iperf 2", u -> { }, LoggerFactory.getLogger("test"));
        try {
            int p = ports.address().getPort();
            assertThat(p).isBetween(1, 65535);
            assertThat(((InetSocketAddress) ports.udp().getLocalAddress()).getPort()).isEqualTo(p);
        } finally {
            assertThat(ports.closePorts()).isTrue();
            assertThat(ports.closePorts()).isFalse(); // the second close does nothing
        }
        assertThat(ports.isClosed()).isTrue();
        assertThat(ports.udp().isOpen()).isFalse();
    }

    @Test
    void aReceiveBufferRebindsTheTcpPortAndConnectionsInheritIt() throws Exception {
        Iperf2ServerConfig config = new Iperf2ServerConfig(LO, 0, AllowFrom.anyone(), AgentLimits.defaults(),
                Duration.ofSeconds(1));
        SamePortListener ports = SamePortListener.open(config, "iperf 2", u -> { }, LoggerFactory.getLogger("test"));
        BlockingQueue<SocketChannel> accepted = new LinkedBlockingQueue<>();
        try {
            ports.start("test-listener", (s, from) -> accepted.add(s), () -> { });
            int p = ports.address().getPort();
            ports.tcpReceiveBuffer(8192);
            int small = rcvbufOfNextAccepted(ports, accepted);
            ports.tcpReceiveBuffer(0);
            int usual = rcvbufOfNextAccepted(ports, accepted);
            // Linux doubles what is set: 16 KiB, below the default's tcp_rmem[1] (128 KiB where untuned)
            assertThat(small).isLessThan(usual);
            assertThat(ports.address().getPort()).isEqualTo(p);
        } finally {
            ports.closePorts();
            ports.join(5000);
            accepted.forEach(SamePortListener::closeQuietly);
        }
    }

    private static int rcvbufOfNextAccepted(SamePortListener ports, BlockingQueue<SocketChannel> accepted) throws Exception {
        try (SocketChannel c = SocketChannel.open(ports.address())) {
            SocketChannel s = accepted.poll(10, TimeUnit.SECONDS);
            assertThat(s).as("a connection accepted within 10 s").isNotNull();
            try (s) {
                return s.getOption(StandardSocketOptions.SO_RCVBUF);
            }
        }
    }
}
