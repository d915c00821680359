package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A closed connection names the end that closed it: the server on a client's channel, the client on a server's. */
class BoundedChannelEndTest {
    private static final Duration T = Duration.ofSeconds(30);

    @Test
    void eachSideNamesTheOtherWhenItClosesTheConnection() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (BoundedChannel client = BoundedChannel.connect((InetSocketAddress) listener.getLocalAddress(), T);
                    SocketChannel raw = listener.accept();
                    BoundedChannel server = BoundedChannel.accepted(raw, T)) {
                client.close();
                assertThatThrownBy(() -> server.readFully(ByteBuffer.allocate(4)))
                        .isInstanceOf(EOFException.class).hasMessage("the client closed the connection");
            }
            try (BoundedChannel client = BoundedChannel.connect((InetSocketAddress) listener.getLocalAddress(), T)) {
                listener.accept().close();
                assertThatThrownBy(() -> client.readFully(ByteBuffer.allocate(4)))
                        .isInstanceOf(EOFException.class).hasMessage("the server closed the connection");
            }
        }
    }
}
