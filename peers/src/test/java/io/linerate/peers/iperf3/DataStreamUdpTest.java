package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An iperf3 UDP receiving stream (the server's end of a forward test, the client's of a reverse
 * one) on loopback, fed by hand: a re-sent or duplicated 4-byte connect message or reply that
 * reaches the data socket is a control datagram of the handshake, not data, and is not counted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataStreamUdpTest {
    private static final int LEN = 100;

    @Test
    void repeatedConnectMessagesAndRepliesAreNotCountedAsData() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (DatagramChannel peer = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            DatagramChannel ch = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
            ch.connect(peer.getLocalAddress());
            peer.connect(ch.getLocalAddress());
            DataStream rx = DataStream.acceptedUdp(1, ch, false, true, LEN, 0, 0, Pace.ofClient(0, 0), Duration.ofSeconds(10));
            try (rx) {
                rx.start("test-rx");
                for (int seq = 1; seq <= 5; seq++) {
                    sendData(peer, seq);
                }
                awaitMessages(rx, 5);
                // the client's connect message again, and a server's reply in either byte order, as a duplicating path delivers them
                peer.write(Iperf3Wire.udpConnectMessage());
                peer.write(ByteBuffer.allocate(4).order(ByteOrder.BIG_ENDIAN).putInt(0, Iperf3Wire.UDP_CONNECT_REPLY));
                peer.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, Iperf3Wire.UDP_CONNECT_REPLY));
                sendData(peer, 6);
                // the socket keeps its datagrams in order: when the sixth data datagram is counted, the three before it were read
                awaitMessages(rx, 6);
                rx.stop();
                assertThat(rx.join(10_000)).as("the receiver drains and ends").isTrue();
            }
            assertThat(rx.failure()).isNull();
            assertThat(rx.messages).as("data datagrams counted").isEqualTo(6);
            assertThat(rx.bytes).as("data bytes counted").isEqualTo(6L * LEN);
            assertThat(rx.tracker.distinct()).isEqualTo(6);
        }
    }

    private static void sendData(DatagramChannel peer, long seq) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(LEN);
        Iperf3DatagramHeader.write(b, 1_700_000_000_000_000L + seq * 1000, seq, true);
        peer.write(b);
    }

    /** Waits for the receiver's count to reach {@code n}; the class's timeout bounds it. */
    private static void awaitMessages(DataStream rx, long n) {
        while (rx.messages < n && rx.failure() == null) {
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
