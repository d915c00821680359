package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.DatagramHeader;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.socket.DatagramBatch;
import io.linerate.socket.NativeSocket;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hand-made sender writes sequence numbers out of order and twice, in one sendmmsg(2) batch of
 * datagrams or in one UDP GSO buffer of segments, to the native receive loop: they count as
 * reordered and duplicated, never as lost, and every segment of a coalesced receive is accounted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UdpReceiverOrderTest {
    private static final int PAYLOAD = 200;
    /** Ten distinct numbers: 2 after 3 and 8 after 9 are reordered; 5 and 9 arrive twice. */
    private static final long[] WRITTEN = {0, 1, 3, 2, 4, 5, 5, 6, 7, 9, 8, 9};
    private static final long DISTINCT = 10;

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void outOfOrderAndRepeatedNumbersAreReorderedAndDuplicatesNotLoss(boolean gso) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(PAYLOAD)
                .io(new StreamIo(gso ? 0 : 16, gso, false, false)).bound(Bound.messages(DISTINCT)).warmup(Duration.ZERO)
                .interval(Duration.ofSeconds(1)).build();
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (NativeSocket tx = NativeSocket.udp(AddressFamily.IPV4); NativeSocket rx = NativeSocket.udp(AddressFamily.IPV4)) {
            rx.bind(lo, 0);
            tx.bind(lo, 0);
            tx.connect(lo, rx.localPort(), 1000);
            rx.connect(lo, tx.localPort(), 1000);
            if (gso) {
                tx.options().udpSegment(PAYLOAD);
            }
            UdpReceiver receiver = UdpReceiver.of(spec, rx);
            // one message of 12 segments with GSO; else 12 messages of one datagram each
            DatagramBatch out = gso ? new DatagramBatch(1, WRITTEN.length * PAYLOAD) : new DatagramBatch(WRITTEN.length, PAYLOAD);
            StreamEngine.SendLoop handMade = ctx -> {
                int phase = ctx.phase();
                long now = ctx.clock().nanoTime();
                for (int i = 0; i < WRITTEN.length; i++) {
                    DatagramHeader.write(out.data(), i * PAYLOAD, spec.streamId(), WRITTEN[i], now, phase);
                    out.length(i % out.slots(), gso ? WRITTEN.length * PAYLOAD : PAYLOAD);
                }
                int sent = 0;
                while (sent < out.slots()) {
                    int n = out.send(tx, sent, out.slots() - sent, 100);
                    sent += Math.max(n, 0);
                }
                for (int i = 0; i < DISTINCT; i++) {
                    ctx.sent(PAYLOAD, true);
                }
            };
            TransferResult r = new StreamEngine(spec, Clock.system(), handMade, receiver::run)
                    .run(new AppliedOptions(0, 0, 0, 0, 0, 0, false, false), sample -> { });
            UdpStats u = r.udp().orElseThrow();
            assertThat(u.datagramsSent()).isEqualTo(DISTINCT);
            assertThat(u.datagramsReceived()).isEqualTo(DISTINCT);
            assertThat(u.lost()).isZero();
            assertThat(u.reordered()).isEqualTo(2);
            assertThat(u.duplicates()).isEqualTo(2);
            DataPath.End in = receiver.dataPathEnd().orElseThrow();
            assertThat(in.segments()).as("every arrival, duplicates included").isEqualTo(WRITTEN.length);
            assertThat(in.maxSegmentsPerCall()).isBetween(1L, (long) WRITTEN.length);
            assertThat(in.call()).isEqualTo(gso ? "recvmmsg(2) with UDP_GRO (at most 12 segments per coalesced datagram)"
                    : "recvmmsg(2)");
        }
    }
}
