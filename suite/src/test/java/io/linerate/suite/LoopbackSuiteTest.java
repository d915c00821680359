package io.linerate.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.TcpMss;
import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import io.linerate.nio.NioTransport;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackSuite.Outcome;
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
    void eachTcpMarkerWritesOneFullSegmentOfItsOwnFamilyWhereTheMssIsNearZperfs() {
        // the namespace of --netns: MTU 1280 with timestamps, MSS 1280 - 20 - 20 - 12 = 1228 (IPv4) and
        // 1280 - 40 - 20 - 12 = 1208 (IPv6); each family writes its own, one full segment
        LoopbackTcpPayload ns = LoopbackTcpPayload.of(
                Optional.of(new TcpMss(AddressFamily.IPV4, 1280, 12)), Optional.of(new TcpMss(AddressFamily.IPV6, 1280, 12)));
        assertThat(ns.ipv4Bytes()).isEqualTo(1228);
        assertThat(ns.ipv6Bytes()).isEqualTo(1208);
        assertThat(ns.description()).isEqualTo("IPv4 1228 B (the MSS at loopback MTU 1280 with TCP timestamps: one full "
                + "segment per write), IPv6 1208 B (the MSS at loopback MTU 1280 with TCP timestamps: one full segment per write)");
        // MTU 1280 without timestamps: 1240 and 1220 (zperf's own configuration)
        LoopbackTcpPayload noTs = LoopbackTcpPayload.of(Optional.of(new TcpMss(AddressFamily.IPV4, 1280, 0)),
                Optional.of(new TcpMss(AddressFamily.IPV6, 1280, 0)));
        assertThat(noTs.ipv4Bytes()).isEqualTo(1240);
        assertThat(noTs.ipv6Bytes()).isEqualTo(1220);
        // MTU 1500 with timestamps: 1448 and 1428, each below twice 1220
        LoopbackTcpPayload ethernet = LoopbackTcpPayload.of(Optional.of(new TcpMss(AddressFamily.IPV4, 1500, 12)),
                Optional.of(new TcpMss(AddressFamily.IPV6, 1500, 12)));
        assertThat(ethernet.ipv4Bytes()).isEqualTo(1448);
        assertThat(ethernet.ipv6Bytes()).isEqualTo(1428);
        // at MTU 2492 the IPv4 MSS (2440) holds two of zperf's writes, the IPv6 MSS (2420) does not
        LoopbackTcpPayload edge = LoopbackTcpPayload.of(Optional.of(new TcpMss(AddressFamily.IPV4, 2492, 12)),
                Optional.of(new TcpMss(AddressFamily.IPV6, 2492, 12)));
        assertThat(edge.ipv4Bytes()).isEqualTo(1220);
        assertThat(edge.ipv6Bytes()).isEqualTo(2420);
        // the host's loopback, MTU 65536: MSS 65483 and 65464 hold many writes, so zperf's 1220 stays
        LoopbackTcpPayload host = LoopbackTcpPayload.of(
                Optional.of(new TcpMss(AddressFamily.IPV4, 65536, 12)), Optional.of(new TcpMss(AddressFamily.IPV6, 65536, 12)));
        assertThat(host.ipv4Bytes()).isEqualTo(1220);
        assertThat(host.ipv6Bytes()).isEqualTo(1220);
        assertThat(host.description()).isEqualTo("IPv4 1220 B (zperf's; the MSS at loopback MTU 65536 with TCP timestamps, "
                + "65483 B, holds two or more writes, which the stack joins into full segments), IPv6 1220 B (zperf's; "
                + "the MSS at loopback MTU 65536 with TCP timestamps, 65464 B, holds two or more writes, which the stack "
                + "joins into full segments)");
        LoopbackTcpPayload unknown = LoopbackTcpPayload.of(Optional.empty(), Optional.empty());
        assertThat(unknown.ipv4Bytes()).isEqualTo(1220);
        assertThat(unknown.ipv6Bytes()).isEqualTo(1220);
        assertThat(unknown.description()).isEqualTo("IPv4 1220 B (zperf's; the loopback MSS could be neither read nor "
                + "derived), IPv6 1220 B (zperf's; the loopback MSS could be neither read nor derived)");
        // read from a connection: the sender's figure decides, and the description says it was read
        LoopbackTcpPayload read = LoopbackTcpPayload.of(Optional.of(TcpMss.read(AddressFamily.IPV4, 1228, 1228, "tcpi_snd_mss")),
                Optional.of(TcpMss.read(AddressFamily.IPV6, 65464, 32768, "tcpi_snd_mss")));
        assertThat(read.ipv4Bytes()).isEqualTo(1228);
        assertThat(read.ipv6Bytes()).isEqualTo(1220);
        assertThat(read.description()).isEqualTo("IPv4 1228 B (the MSS read on a loopback connection (tcpi_snd_mss): one "
                + "full segment per write), IPv6 1220 B (zperf's; the MSS read on a loopback connection (tcpi_snd_mss), "
                + "65464 B, holds two or more writes, which the stack joins into full segments)");
        // derived where it could not be read: the reason is kept
        LoopbackTcpPayload unread = LoopbackTcpPayload.of(
                Optional.of(new TcpMss(AddressFamily.IPV4, 1280, 12).withUnreadBecause("no TCP_INFO source")), Optional.empty());
        assertThat(unread.description()).startsWith("IPv4 1228 B (the MSS at loopback MTU 1280 with TCP timestamps, derived; "
                + "not read: no TCP_INFO source: one full segment per write)");
    }

    @Test
    void tcpMarkersTakeTheirFamilysTcpPayloadAndUdpMarkersTheOther() {
        LoopbackSuite.Config c = LoopbackSuite.Config.builder().payloadBytes(1220)
                .tcpPayload(new LoopbackTcpPayload(1228, 1208, "test")).fragPayloadBytes(2000).build();
        assertThat(c.spec(Marker.TCP4).payloadBytes()).isEqualTo(1228);
        assertThat(c.spec(Marker.TCP4_NODELAY).payloadBytes()).isEqualTo(1228);
        assertThat(c.spec(Marker.TCP6).payloadBytes()).isEqualTo(1208);
        assertThat(c.spec(Marker.TCP6_NODELAY).payloadBytes()).isEqualTo(1208);
        assertThat(c.spec(Marker.UDP6).payloadBytes()).isEqualTo(1220);
        assertThat(c.spec(Marker.UDP4_FRAG).payloadBytes()).isEqualTo(2000);
        // a given payload is every tcp marker's
        LoopbackSuite.Config given = LoopbackSuite.Config.builder().tcpPayloadBytes(1300).build();
        assertThat(given.spec(Marker.TCP4).payloadBytes()).isEqualTo(1300);
        assertThat(given.spec(Marker.TCP6_NODELAY).payloadBytes()).isEqualTo(1300);
        assertThat(given.tcpPayload().description()).isEqualTo("1300 B (given)");
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
