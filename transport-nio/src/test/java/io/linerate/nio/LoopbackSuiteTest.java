package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.TcpMss;
import io.linerate.core.Transport;
import io.linerate.core.Transports;
import io.linerate.nio.LoopbackSuite.Marker;
import io.linerate.nio.LoopbackSuite.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LoopbackSuiteTest {

    @Test
    void markersAreZperfs() {
        assertThat(List.of(Marker.values())).extracting(Marker::label).containsExactly(
                "udp4", "udp4_frag", "tcp4", "tcp4_nodelay", "udp6", "udp6_frag", "tcp6", "tcp6_nodelay");
        assertThat(Marker.parse("TCP6_NODELAY")).isEqualTo(Marker.TCP6_NODELAY);
        assertThatThrownBy(() -> Marker.parse("udp9")).hasMessage("unknown marker 'udp9'; allowed: udp4, udp4_frag, "
                + "tcp4, tcp4_nodelay, udp6, udp6_frag, tcp6, tcp6_nodelay");
    }

    @Test
    void theTcpPayloadIsTheSmallerMssWhereThatIsBelowZperfs() {
        // the namespace of --netns: MTU 1280 with timestamps, MSS 1228 (IPv4) and 1208 (IPv6): 1208
        LoopbackSuite.TcpPayload ns = LoopbackRules.tcpPayload(
                Optional.of(TcpMss.derive(AddressFamily.IPV4, 1280, true)), Optional.of(TcpMss.derive(AddressFamily.IPV6, 1280, true)));
        assertThat(ns.bytes()).isEqualTo(1208);
        assertThat(ns.reason()).isEqualTo("the smaller MSS of the two families (IPv4 1228 B, IPv6 1208 B at loopback MTU "
                + "1280 with TCP timestamps), below zperf's 1220 B, so that no write leaves a runt segment");
        // the host's loopback, MTU 65536: MSS 65483 and 65464, so zperf's 1220 stays
        LoopbackSuite.TcpPayload host = LoopbackRules.tcpPayload(
                Optional.of(TcpMss.derive(AddressFamily.IPV4, 65536, true)), Optional.of(TcpMss.derive(AddressFamily.IPV6, 65536, true)));
        assertThat(host.bytes()).isEqualTo(1220);
        assertThat(host.reason()).isEqualTo("zperf's; the smaller MSS of the two families is larger "
                + "(IPv4 65483 B, IPv6 65464 B at loopback MTU 65536 with TCP timestamps)");
        // MTU 1280 without timestamps: 1240 and 1220, neither below 1220
        assertThat(LoopbackRules.tcpPayload(Optional.of(TcpMss.derive(AddressFamily.IPV4, 1280, false)),
                Optional.of(TcpMss.derive(AddressFamily.IPV6, 1280, false))).bytes()).isEqualTo(1220);
        assertThat(LoopbackRules.tcpPayload(Optional.empty(), Optional.empty()).bytes()).isEqualTo(1220);
    }

    @Test
    void tcpMarkersTakeTheTcpPayloadAndUdpMarkersTheOther() {
        LoopbackSuite.Config c = LoopbackSuite.Config.builder().payloadBytes(1220).tcpPayloadBytes(1208)
                .fragPayloadBytes(2000).build();
        assertThat(c.spec(Marker.TCP6).payloadBytes()).isEqualTo(1208);
        assertThat(c.spec(Marker.TCP4_NODELAY).payloadBytes()).isEqualTo(1208);
        assertThat(c.spec(Marker.UDP6).payloadBytes()).isEqualTo(1220);
        assertThat(c.spec(Marker.UDP4_FRAG).payloadBytes()).isEqualTo(2000);
    }

    @Test
    void badConfigFailsBeforeAnyTraffic() {
        assertThatThrownBy(() -> LoopbackSuite.Config.builder().repeat(0).build())
                .hasMessage("repeat 0 is out of range; allowed: 1..10000");
        LoopbackSuite.Config bigPayload = LoopbackSuite.Config.builder().markers(List.of(Marker.UDP4))
                .payloadBytes(65508).build();
        assertThatThrownBy(() -> new LoopbackSuite(new NioTransport(), Clock.system()).run(bigPayload, o -> { }))
                .hasMessage("payload 65508 bytes is out of range: UDP over IPv4 allows 32..65507 bytes");
    }

    @Test
    void aTransportThatRunsNoStreamsIsRefusedBeforeAnyTraffic() {
        Transport latencyOnly = new Transport() {
            @Override
            public String name() {
                return "latency-only";
            }

            @Override
            public Set<Pattern> patterns() {
                return Set.of(Pattern.PING_PONG);
            }

            @Override
            public Optional<String> unsupportedReason(MeasurementSpec spec) {
                return Optional.empty();
            }

            @Override
            public Measurement open(MeasurementSpec spec, Clock clock) {
                throw new AssertionError("opened " + spec + " on a transport that runs no streams");
            }
        };
        LoopbackSuite.Config one = LoopbackSuite.Config.builder().markers(List.of(Marker.TCP6)).build();
        assertThatThrownBy(() -> new LoopbackSuite(latencyOnly, Clock.system()).run(one, o -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("transport latency-only cannot run marker tcp6: it does not run streams");
    }

    @Test
    void fragmentingMarkersAreSkippedWhereLoopbackCarriesTheDatagramWhole() {
        long mtu = LoopbackSuite.loopbackMtu().orElseThrow();
        Assumptions.assumeTrue(mtu >= 2048, "this namespace's loopback MTU is " + mtu + ", below a 2000-byte datagram");
        Optional<String> why = LoopbackRules.fragmentationUnavailable(Marker.UDP6_FRAG, 2000);
        assertThat(why).hasValue("loopback MTU " + mtu + " carries a 2048-byte datagram whole, so it would not "
                + "fragment; run with --netns (root) for a loopback MTU of 1280");
    }

    @Test
    void everyMarkerHasAnOutcome() {
        LoopbackSuite.Config quick = LoopbackSuite.Config.builder().duration(Duration.ofMillis(150))
                .warmup(Duration.ofMillis(50)).interval(Duration.ofMillis(50)).payloadBytes(1220).tcpPayloadBytes(1220)
                .repeat(2).build();
        List<Outcome> seen = new ArrayList<>();
        // the suite runs on the transport Transports picks for its specs: nio on this class path
        Transport nio = Transports.select(null, quick.spec(Marker.TCP4));
        assertThat(nio.name()).isEqualTo(NioTransport.NAME);
        List<Outcome> all = new LoopbackSuite(nio, Clock.system()).run(quick, seen::add);
        assertThat(all).isEqualTo(seen).hasSize(16);
        assertThat(all.subList(0, 8)).extracting(Outcome::marker).containsExactly(Marker.values());
        assertThat(all.subList(8, 16)).extracting(Outcome::run).containsOnly(2);
        for (Outcome o : all) {
            if (o.marker().fragmenting() && LoopbackSuite.loopbackMtu().orElseThrow() >= 2048) {
                assertThat(o).isInstanceOf(Outcome.Skipped.class);
            } else {
                // valid, unless a loaded host starved the 150 ms window: then it says so, and says nothing else
                assertThat(o).isInstanceOfSatisfying(Outcome.Completed.class,
                        c -> assertThat(c.invalidReasons()).allMatch(r -> r.startsWith("no datagram was sent in the measured window")
                                || r.startsWith("no payload byte arrived") || r.startsWith("none of the ")
                                || r.equals("no datagram arrived")));
            }
        }
    }
}
