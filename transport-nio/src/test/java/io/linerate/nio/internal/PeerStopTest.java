package io.linerate.nio.internal;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.SenderContext;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A peer that stops mid-transfer ends the sender's loop with an error, within the I/O timeout. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PeerStopTest {

    private static SenderContext context(Protocol p) {
        TransferSpec spec = TransferSpec.builder().protocol(p).duration(Duration.ofMinutes(10))
                .ioTimeout(Duration.ofMillis(300)).build();
        SenderContext ctx = new SenderContext(spec, Clock.system());
        ctx.start(System.nanoTime());
        return ctx;
    }

    @Test
    void tcpPeerThatStopsReadingIsAnErrorAfterTheTimeout() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel tx = SocketChannel.open(server.getLocalAddress());
             SocketChannel idle = server.accept();
             Selector sel = Selector.open()) {
            tx.configureBlocking(false);
            tx.register(sel, SelectionKey.OP_WRITE);
            SenderContext ctx = context(Protocol.TCP);
            assertThatThrownBy(() -> TcpEndpoints.sendLoop(tx, sel, ctx, 1220))
                    .isInstanceOf(IOException.class)
                    .hasMessageStartingWith("TCP sender made no progress for 300 ms after ")
                    .hasMessageEndingWith(" bytes: the peer stopped reading");
            assertThat(ctx.bytesSent()).isPositive();
            assertThat(idle.isOpen()).isTrue();
        }
    }

    @Test
    void tcpPeerThatClosesIsAnError() throws Exception {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel tx = SocketChannel.open(server.getLocalAddress());
             Selector sel = Selector.open()) {
            SocketChannel gone = server.accept();
            gone.setOption(StandardSocketOptions.SO_LINGER, 0);
            gone.close();
            tx.configureBlocking(false);
            tx.register(sel, SelectionKey.OP_WRITE);
            assertThatThrownBy(() -> TcpEndpoints.sendLoop(tx, sel, context(Protocol.TCP), 1220))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void udpPeerThatIsGoneIsAnError() throws Exception {
        InetSocketAddress closedPort;
        try (DatagramChannel probe = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            closedPort = (InetSocketAddress) probe.getLocalAddress();
        }
        try (DatagramChannel tx = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             Selector sel = Selector.open()) {
            tx.connect(closedPort);
            tx.configureBlocking(false);
            tx.register(sel, SelectionKey.OP_WRITE);
            // the kernel answers with ICMP port unreachable, which the next send reports
            assertThatThrownBy(() -> UdpEndpoints.sendLoop(tx, sel, context(Protocol.UDP), 1220, 1))
                    .isInstanceOf(java.net.PortUnreachableException.class);
        }
    }
}
