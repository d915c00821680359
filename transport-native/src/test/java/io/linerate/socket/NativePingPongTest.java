package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Muxer;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.socket.internal.NativePingPong;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Ping-pongs on native sockets, both ends in this JVM: tcp, udp and unix_datagram. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativePingPongTest {
    static final RunFacts FACTS = new RunFacts("test", "2026-01-01T00:00:00Z", "u", "c", "j", "o");
    static final int WARMUP_ITERATIONS = 20;

    static PingPongSpec.Builder shortSweep(PingPongProtocol p) {
        return PingPongSpec.builder().protocol(p).sizes(List.of(1, 64, 1472))
                .policy(new IterationPolicy(Duration.ofMillis(20), Duration.ofMillis(200), 200, 1_000_000,
                        Duration.ZERO, WARMUP_ITERATIONS))
                .timeout(Duration.ofSeconds(5));
    }

    static Stream<Arguments> protocols() {
        return Stream.of(Arguments.of(PingPongProtocol.TCP, AddressFamily.IPV4, false),
                Arguments.of(PingPongProtocol.TCP, AddressFamily.IPV6, false),
                Arguments.of(PingPongProtocol.UDP, AddressFamily.IPV4, false),
                Arguments.of(PingPongProtocol.UDP, AddressFamily.IPV4, true),
                Arguments.of(PingPongProtocol.UDP, AddressFamily.IPV6, false),
                Arguments.of(PingPongProtocol.UNIX_DATAGRAM, AddressFamily.IPV4, false));
    }

    @ParameterizedTest(name = "{0} IPv{1} connect {2}")
    @MethodSource("protocols")
    void theEchoServerAnsweredEveryRoundTrip(PingPongProtocol p, AddressFamily family, boolean connect)
            throws Exception {
        PingPongSpec spec = shortSweep(p).family(family).connect(connect).build();
        long[] answered = {-1};
        PingPongResult r = NativePingPong.run(spec, Clock.system(), FACTS, -1, n -> answered[0] = n);
        assertThat(r.sizes()).extracting(PingPongResult.SizeCounts::sizeBytes).containsExactly(1, 64, 1472);
        for (PingPongResult.SizeCounts c : r.sizes()) {
            assertThat(c.measured()).isPositive();
            assertThat(c.roundTrips() - c.measured()).isBetween(1L, (long) WARMUP_ITERATIONS);
        }
        // counted on the server: one answer per round trip (for tcp, each message arrives whole
        // at these sizes over loopback, and a split one would count more answers, never fewer)
        if (p.datagram()) {
            assertThat(answered[0]).isEqualTo(r.roundTrips()).isPositive();
        } else {
            assertThat(answered[0]).isGreaterThanOrEqualTo(r.roundTrips()).isPositive();
        }
        assertThat(r.report().sizes()).allSatisfy(s -> assertThat(s.roundTrips().count()).isPositive());
    }

    @Test
    void unixDatagramIsRunByTheNativeTransportWhenNoneIsNamed() throws Exception {
        PingPongSpec spec = shortSweep(PingPongProtocol.UNIX_DATAGRAM).sizes(List.of(8)).build();
        assertThat(Transports.forSpec(spec).name()).isEqualTo(NativeTransport.NAME);
        MeasurementResult r;
        try (Measurement m = Transports.forSpec(spec).open(spec, Clock.system())) {
            r = m.run();
        }
        assertThat(r).isInstanceOf(PingPongResult.class);
        assertThat(((PingPongResult) r).sizes().get(0).measured()).isPositive();
    }

    @Test
    void tcpReportsTheMssReadAtBothEnds() throws Exception {
        PingPongSpec spec = shortSweep(PingPongProtocol.TCP).sizes(List.of(8)).trafficClass(0x10).build();
        PingPongResult r = NativePingPong.run(spec, Clock.system(), FACTS, -1, n -> { });
        TcpMss mss = r.options().tcpMss().orElseThrow();
        // loopback's MTU is 65536; the MSS leaves room for the IPv4 and TCP headers and options
        assertThat(mss.bytes()).isBetween(1000, 65536 - 40);
        assertThat(mss.derivation()).matches("read: TCP_MAXSEG " + mss.bytes() + " at the sender, \\d+ at the receiver");
        assertThat(r.options().noDelayApplied()).isTrue();
        assertThat(r.options().trafficClassApplied()).isEqualTo(0x10);
    }

    @Test
    void aServerThatStopsAnsweringIsATimeoutNamingTheRoundTrips() throws Exception {
        PingPongSpec spec = shortSweep(PingPongProtocol.UNIX_DATAGRAM).sizes(List.of(16))
                .timeout(Duration.ofMillis(300)).build();
        long before = openDescriptors();
        assertThatThrownBy(() -> NativePingPong.run(spec, Clock.system(), FACTS, 5, n -> { }))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("unix_datagram ping-pong of 16-byte messages ended: no answer within the timeout of 300 ms")
                .hasMessageContaining("5 round trips completed");
        assertThat(openDescriptors()).as("descriptors open after the failed run").isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP", "UNIX_DATAGRAM"})
    void everySocketIsClosedWhenTheRunEnds(PingPongProtocol p) throws Exception {
        PingPongSpec spec = shortSweep(p).sizes(List.of(8)).build();
        NativePingPong.run(spec, Clock.system(), FACTS, -1, n -> { });
        long before = openDescriptors();
        NativePingPong.run(spec, Clock.system(), FACTS, -1, n -> { });
        assertThat(openDescriptors()).as("descriptors open after the run").isEqualTo(before);
    }

    /** @return the entries of /proc/self/fd: this process's open descriptors (the listing's own included each time) */
    private static long openDescriptors() throws java.io.IOException {
        try (Stream<java.nio.file.Path> fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    @Test
    void anInterruptWhileWaitingForAnAnswerEndsTheSweepWithWhatWasMeasured() throws Exception {
        // the server answers 5 pings; the clock interrupts the client from its 13th reading on: the
        // sweep's start, the size's start, then two per round trip, so the 13th is the start of
        // round trip 6, whose answer never comes: the interrupt must end the wait in poll(2)
        long[] readings = {0};
        Clock interrupting = () -> {
            if (++readings[0] >= 13) {
                Thread.currentThread().interrupt();
            }
            return System.nanoTime();
        };
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UNIX_DATAGRAM).sizes(List.of(16))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(20), 1, 1000, Duration.ZERO, 1000))
                .timeout(Duration.ofSeconds(20)).build();
        PingPongResult r;
        try {
            r = NativePingPong.run(spec, interrupting, FACTS, 5, n -> { });
        } finally {
            // the clock interrupts again at the readings after the wait ended; no test after this one sees it
            Thread.interrupted();
        }
        assertThat(r.interrupted()).isTrue();
        assertThat(r.roundTrips()).isEqualTo(5);
        assertThat(r.sizes().get(0).roundTrips()).isEqualTo(5);
    }

    @Test
    void theNativeTransportRefusesWhatItDoesNotRun() {
        NativeTransport t = new NativeTransport();
        assertThat(t.unsupportedReason(PingPongSpec.builder().protocol(PingPongProtocol.PIPE).build()))
                .contains("protocol pipe is not on the native transport's ping-pong: it runs tcp, udp and unix_datagram; "
                        + "the nio transport runs pipe");
        assertThat(t.unsupportedReason(PingPongSpec.builder().protocol(PingPongProtocol.UNIX_DATAGRAM).build())).isEmpty();
        assertThat(t.unsupportedReason(PingPongSpec.builder().bindToDevice("lo").build())).isEmpty();
        assertThat(t.unsupportedReason(PingPongSpec.builder().clientMuxer(Muxer.SPIN).build()))
                .contains("muxer spin is not on the native transport's ping-pong: its ends wait in a blocking "
                        + "recv(2); allowed: blocking");
        assertThat(t.unsupportedReason(PingPongSpec.builder().serverMuxer(Muxer.SPIN).build()))
                .contains("server muxer spin is not on the native transport's ping-pong: its ends wait in a blocking "
                        + "recv(2); allowed: blocking");
        assertThat(t.unsupportedReason(PingPongSpec.builder().protocol(PingPongProtocol.UDP)
                .multicast(PingPongMulticast.parse("239.1.2.3", null, false, AddressFamily.IPV4)).build()))
                .contains("mcast is not yet on the native transport; the nio transport runs a multicast ping-pong");
        assertThat(t.patterns()).containsExactlyInAnyOrder(Pattern.STREAM, Pattern.PING_PONG, Pattern.REQUEST_RESPONSE);
    }
}
