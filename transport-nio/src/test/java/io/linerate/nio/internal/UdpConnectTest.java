package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sfnt-pingpong's {@code --connect} on the UDP ping-pong over loopback: with it each socket is
 * connected to the other's, so the kernel drops a datagram from a third socket; without it each end
 * sends with sendto() and receives from any sender.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UdpConnectTest {
    private static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");
    private static final int WARMUP = 10;
    private static final int TRIPS = 100;

    @ParameterizedTest(name = "connect {0}")
    @ValueSource(booleans = {true, false})
    void aSweepCompletesEveryRoundTripAndTheServerAnswersEachOnce(boolean connect) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(1, 1472))
                .clientMuxer(Muxer.SELECTOR).serverMuxer(Muxer.BLOCKING).connect(connect)
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(60), TRIPS, TRIPS, Duration.ZERO, WARMUP))
                .timeout(Duration.ofSeconds(10)).build();
        long[] answered = new long[1];
        PingPongResult r = PingPongRunner.run(spec, Clock.system(), FACTS, -1, n -> answered[0] = n, null);
        assertThat(r.sizes()).extracting(PingPongResult.SizeCounts::roundTrips)
                .containsExactly((long) WARMUP + TRIPS, (long) WARMUP + TRIPS);
        assertThat(answered[0]).isEqualTo(2L * (WARMUP + TRIPS));
        assertThat(r.appliedDescription()).endsWith(", connect " + connect);
        assertThat(r.detailJson().toJson()).contains("\"connect\":" + connect);
    }

    @Test
    void aConnectedClientNeverSeesAThirdSocketsDatagram() throws Exception {
        assertThat(firstDatagramAfterAStray(true)).isEqualTo("pong");
    }

    @Test
    void anUnconnectedClientTakesAThirdSocketsDatagramAsSfntPingpongWithoutConnectDoes() throws Exception {
        assertThat(firstDatagramAfterAStray(false)).isEqualTo("stray");
    }

    /**
     * Sends a datagram from a third socket to the client, then the server's answer, both from this
     * thread over loopback (delivered in the order sent), and reads the client's first datagram.
     */
    private static String firstDatagramAfterAStray(boolean connect) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).connect(connect)
                .timeout(Duration.ofSeconds(10)).build();
        try (Link link = Link.open(spec);
             DatagramChannel third = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            long deadline = System.nanoTime() + spec.timeout().toNanos();
            third.send(ascii("stray"), link.client().localAddress());
            assertThat(link.server().write(ascii("pong"), deadline)).isEqualTo(Endpoint.OK);
            ByteBuffer rx = ByteBuffer.allocate(64);
            assertThat(link.client().read(rx, deadline, true)).isEqualTo(Endpoint.OK);
            return new String(rx.array(), 0, rx.position(), StandardCharsets.US_ASCII);
        }
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }
}
