package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UDP streams with both ends in this JVM on the native transport, one call per datagram, in
 * sendmmsg/recvmmsg batches and with UDP GSO and GRO, unlimited and paced: every datagram the bound
 * lets out is counted sent once, each arrival is accounted by its own header, and the data path
 * names the calls that ran. A message bound with no warm-up makes the whole transfer the window, so
 * the figures are compared with the bound itself.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NativeUdpStreamTest {
    private static final int PAYLOAD = 1400;

    static Stream<Arguments> paths() {
        return Stream.of(
                Arguments.of(new StreamIo(1, false, false, false), 0L, "send(2)", "recv(2)"),
                Arguments.of(StreamIo.DEFAULT, 0L, "sendmmsg(2)", "recvmmsg(2)"),
                Arguments.of(new StreamIo(64, false, false, false), 50_000_000L, "sendmmsg(2)", "recvmmsg(2)"),
                Arguments.of(new StreamIo(0, true, false, false), 0L, "sendmmsg(2) with UDP_SEGMENT (1400-byte segments)",
                        "recvmmsg(2) with UDP_GRO"),
                Arguments.of(new StreamIo(4, true, false, false), 50_000_000L,
                        "sendmmsg(2) with UDP_SEGMENT (1400-byte segments)", "recvmmsg(2) with UDP_GRO"));
    }

    @ParameterizedTest
    @MethodSource("paths")
    void everyDatagramIsSentOnceAndReceivedOrLost(StreamIo io, long rate, String sendCall, String receiveCall)
            throws Exception {
        // paced: 50 Mbit/s of 1400-byte datagrams is 4464 per second; 3000 of them take 0.7 s
        long count = rate == 0 ? 30_000 : 3_000;
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(PAYLOAD)
                .rateBitsPerSecond(rate).io(io).bound(Bound.messages(count)).warmup(Duration.ZERO)
                .interval(Duration.ofSeconds(1)).build();
        TransferResult r;
        try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
            r = t.run();
        }
        assertThat(r.messagesSent()).isEqualTo(count);
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(count);
        assertThat(u.datagramsReceived()).isBetween(1L, count);
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(count);
        assertThat(u.duplicates()).as("loopback duplicates nothing").isZero();
        DataPath p = r.dataPath().orElseThrow();
        assertThat(p.sender().call()).isEqualTo(sendCall);
        assertThat(p.receiver().call()).startsWith(receiveCall);
        assertThat(p.sender().segments()).as("every datagram left in one of the sender's calls").isEqualTo(count);
        assertThat(p.receiver().segments()).as("every arrival was accounted, none twice")
                .isEqualTo(u.datagramsReceived());
        assertThat(p.receiver().calls()).isBetween(1L, p.receiver().segments());
        assertThat(p.receiver().maxSegmentsPerCall()).isGreaterThanOrEqualTo(1);
        int batch = io.batch() != 0 ? io.batch() : io.gso() ? 8 : 32;
        long perCall = io.gso() ? batch * (65507L / PAYLOAD) : batch;
        assertThat(p.sender().maxSegmentsPerCall()).isBetween(1L, perCall);
        assertThat(p.sender().calls()).isGreaterThanOrEqualTo((count + perCall - 1) / perCall);
    }
}
