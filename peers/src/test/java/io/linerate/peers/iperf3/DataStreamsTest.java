package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A test's streams start receivers first: when {@link DataStreams#receivers} returns (before
 * TEST_RUNNING goes out or is read), every receiving stream's thread is in its loop and no sending
 * stream has started; {@link DataStreams#senders} then starts the senders.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DataStreamsTest {
    @Test
    void receiversReadBeforeTestRunningAndSendersStartAfterIt() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (DatagramChannel sink = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
             DatagramChannel source = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            DatagramChannel rxCh = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
            rxCh.connect(source.getLocalAddress());
            DatagramChannel txCh = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
            txCh.connect(sink.getLocalAddress());
            Duration io = Duration.ofSeconds(30);
            DataStream rx = DataStream.acceptedUdp(1, rxCh, false, true, 100, 0, 0, Pace.ofClient(0, 0), io);
            DataStream tx = DataStream.acceptedUdp(2, txCh, true, true, 100, 0, 3, Pace.ofClient(0, 0), io);
            try (rx; tx) {
                DataStreams.receivers(List.of(tx, rx), "test-stream-", io.toNanos());
                assertThat(rx.awaitRunning(0)).as("the receiver is in its loop when receivers() returns").isTrue();
                assertThat(tx.awaitRunning(0)).as("the sender has not started before senders()").isFalse();

                DataStreams.senders(List.of(tx, rx), "test-stream-");
                assertThat(tx.awaitRunning(io.toNanos())).as("the sender started").isTrue();
                assertThat(tx.join(io.toMillis())).as("the sender sends its 3 datagrams and ends").isTrue();
                rx.stop();
                assertThat(rx.join(io.toMillis())).as("the receiver drains and ends").isTrue();
            }
            assertThat(tx.failure()).isNull();
            assertThat(tx.messages).isEqualTo(3);
        }
    }
}
