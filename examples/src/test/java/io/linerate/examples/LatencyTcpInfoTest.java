package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.Transport;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TCP ping-pong and request/response with both ends in this JVM report each end's {@code TCP_INFO}:
 * on {@code nio} through the native module's sock_diag source (on the class path here, as for the
 * command line), on {@code native} by getsockopt. A UDP ping-pong has none.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LatencyTcpInfoTest {
    /** At most 200 round trips per size after 20 of warm-up, within 20..500 ms: short on a busy host. */
    private static final IterationPolicy SHORT = new IterationPolicy(Duration.ofMillis(20), Duration.ofMillis(500), 20,
            200, Duration.ZERO, 20);

    private static MeasurementResult run(String transport, MeasurementSpec spec) throws Exception {
        Transport t = Transports.byName(transport);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> transport + " cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        try (Measurement m = t.open(spec, Clock.system())) {
            return m.run();
        }
    }

    private static PingPongSpec pingPong(PingPongProtocol p) {
        // blocking ends: the native transport's ping-pong waits in a blocking recv(2)
        return PingPongSpec.builder().protocol(p).sizes(List.of(32, 1000)).policy(SHORT).clientMuxer(Muxer.BLOCKING)
                .serverMuxer(Muxer.BLOCKING).timeout(Duration.ofSeconds(10)).build();
    }

    private static void plausible(TcpStats t) {
        assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
        assertThat(t.rttMicros()).isPositive();
        assertThat(t.rttVarMicros()).isNotNegative();
        assertThat(t.cwndBytes()).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "native"})
    void aTcpPingPongReportsBothEndsTcpInfo(String transport) throws Exception {
        PingPongResult r = (PingPongResult) run(transport, pingPong(PingPongProtocol.TCP));

        LatencyTcpInfo info = r.tcpInfo().orElseThrow();
        TcpStats client = info.client().stats().orElseThrow(() -> new AssertionError(info.client().unavailable()));
        TcpStats server = info.server().stats().orElseThrow(() -> new AssertionError(info.server().unavailable()));
        plausible(client);
        plausible(server);
        // on loopback (MTU 65536) the kernel bounds a segment to half the peer's largest window, which
        // grows after the connection is made: the MSS read at set-up is a floor, the MTU's a ceiling
        // (IPv4 20 B, TCP 20 B). TwoHostsAgentTest checks the exact 1448 B across a 1500-byte veth.
        TcpMss.Read read = r.options().tcpMss().flatMap(TcpMss::read).orElseThrow();
        int mtu = NetworkInterface.getByInetAddress(InetAddress.getByName("127.0.0.1")).getMTU();
        assertThat(client.senderMss()).isBetween((long) read.senderBytes(), mtu - 40L);
        assertThat(server.senderMss()).isBetween((long) read.receiverBytes(), mtu - 40L);
        // cwnd is tcpi_snd_cwnd segments of tcpi_snd_mss
        assertThat(client.cwndBytes() % client.senderMss()).isZero();
        assertThat(r.detailJson().toString()).contains("\"tcp_info\":{\"client\":{\"source\":")
                .contains("\"tcpi_snd_mss\":" + client.senderMss()).doesNotContain("tcp_info_unavailable");
    }

    @ParameterizedTest
    @ValueSource(strings = {"nio", "native"})
    void aUdpPingPongHasNoTcpInfo(String transport) throws Exception {
        PingPongResult r = (PingPongResult) run(transport, pingPong(PingPongProtocol.UDP));

        assertThat(r.roundTrips()).isPositive();
        assertThat(r.tcpInfo()).isEmpty();
        assertThat(r.detailJson().toString()).doesNotContain("tcp_info");
    }

    @Test
    void requestResponseReportsTheFlowsAndTheServersTcpInfo() throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(100).responseBytes(200).warmup(Duration.ofMillis(50))
                .duration(Duration.ofMillis(300)).timeout(Duration.ofSeconds(10)).build();
        RrResult r = (RrResult) run("nio", spec);

        LatencyTcpInfo info = r.tcpInfo().orElseThrow();
        TcpStats client = info.client().stats().orElseThrow(() -> new AssertionError(info.client().unavailable()));
        TcpStats server = info.server().stats().orElseThrow(() -> new AssertionError(info.server().unavailable()));
        plausible(client);
        plausible(server);
        // the first flow's MSS, read when it connected (the report's note), is a floor of the one at
        // the window's end on loopback, as for ping-pong above; the MTU's is the ceiling
        String note = r.report().notes().stream().filter(n -> n.startsWith("tcp mss ")).findFirst().orElseThrow();
        long atConnect = Long.parseLong(note.substring("tcp mss ".length(), note.indexOf(" B (")));
        int mtu = NetworkInterface.getByInetAddress(InetAddress.getByName("127.0.0.1")).getMTU();
        assertThat(client.senderMss()).isBetween(atConnect, mtu - 40L);
        assertThat(server.senderMss()).isBetween(1L, mtu - 40L);
    }

    @Test
    void crrSaysWhyItHasNoTcpInfo() throws Exception {
        RrSpec spec = RrSpec.builder().crr(true).warmup(Duration.ZERO).duration(Duration.ofMillis(200))
                .timeout(Duration.ofSeconds(10)).build();
        RrResult r = (RrResult) run("nio", spec);

        LatencyTcpInfo info = r.tcpInfo().orElseThrow();
        assertThat(info.client().stats()).isEmpty();
        assertThat(info.client().unavailable()).contains("a connection per transaction");
        assertThat(r.detailJson().toString()).contains("\"tcp_info_unavailable\":{\"client\":").doesNotContain("\"tcp_info\"");
    }
}
