package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Metric;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.ResultJson;
import io.linerate.peers.agent.client.RemoteStreamResult;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2Result;
import io.linerate.peers.iperf3.Iperf3Result;
import io.linerate.regression.Baseline;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricAssertions;
import io.linerate.regression.Verdict;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.IperfBinary;
import io.linerate.testsupport.PeerTool;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stream against a peer runs on the one path every stream takes: its spec names the peer (an iperf3
 * server, an iperf 2 server, linerate's agent), {@code Transports.select} picks the transport, which
 * opens and runs it, and the result, with both ends' metrics, is gated with {@link MetricAssertions}
 * against a baseline saved from it in the same test. The streams are paced well below what loopback
 * carries: the point is the path, not the speed.
 */
@Timeout(120)
class PeersThroughTransportsTest {
    private static final long RATE = 20_000_000L;

    private static TransferSpec.Builder paced(Protocol p, int payload) {
        return TransferSpec.builder().protocol(p).payloadBytes(payload).rateBitsPerSecond(RATE)
                .duration(Duration.ofSeconds(1)).interval(Duration.ofMillis(250)).warmup(Duration.ZERO)
                .ioTimeout(Duration.ofSeconds(5));
    }

    /** Runs the spec through Transports, collecting this host's interval samples. */
    private static MeasurementResult run(MeasurementSpec spec, List<IntervalSample> intervals) throws Exception {
        IntervalListener listener = new IntervalListener() {
            @Override
            public void onInterval(IntervalSample sample) {
                intervals.add(sample);
            }
        };
        try (Measurement m = Transports.select(null, spec).open(spec, Clock.system())) {
            return m.run(listener);
        }
    }

    /** Saves the result as a baseline, then gates the result against it: every metric passes unchanged. */
    private static GateReport gateAgainstItsOwnBaseline(MeasurementResult r, Path dir) throws Exception {
        Path file = dir.resolve("baseline.json");
        MetricAssertions.assertThat(r).saveBaseline(file, false);
        GateReport report = MetricAssertions.assertThat(r)
                .hasNoRegressionAgainst(Baseline.parse(file.toString(), Files.readString(file)));
        assertThat(report.verdicts()).isNotEmpty().allSatisfy(v -> assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS));
        return report;
    }

    private static Metric metric(MeasurementResult r, String host, String name) {
        return r.metrics().stream().filter(m -> m.host().equals(host) && m.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + host + " " + name + " in " + r.metrics()));
    }

    @Test
    void forwardTcpAgainstARealIperf3Server(@TempDir Path dir) throws Exception {
        PeerTool.require("iperf3", "iperf3");
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            MeasurementSpec spec = paced(Protocol.TCP, 16 * 1024)
                    .endpoint(Iperf3Peer.builder(Endpoint.remote("127.0.0.1", srv.port)).build())
                    .build();
            List<IntervalSample> intervals = new CopyOnWriteArrayList<>();

            MeasurementResult r = run(spec, intervals);

            assertThat(r).isInstanceOf(Iperf3Result.class);
            Iperf3Result i = (Iperf3Result) r;
            assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
            // the sender's own goodput is its bytes over its own time; the server's, what it read
            assertThat(metric(r, "local", "tcp4_sent_mbps").value())
                    .isCloseTo(i.local().bytes() * 8.0 / i.local().nanos() * 1e3, withinPercentage(1e-9));
            assertThat(metric(r, "remote", "tcp4_mbps").value()).isPositive();
            assertThat(i.remoteBytes()).isPositive().isLessThanOrEqualTo(i.local().bytes());
            // intervals are this host's sends, read while the streams run: they never add up to more than it sent
            assertThat(intervals).isNotEmpty();
            assertThat(intervals.stream().mapToLong(IntervalSample::bytes).sum()).isPositive()
                    .isLessThanOrEqualTo(i.local().bytes());

            GateReport report = gateAgainstItsOwnBaseline(r, dir);
            assertThat(report.verdicts()).extracting(v -> v.key().name()).contains("tcp4_sent_mbps", "tcp4_mbps");
        }
    }

    @Test
    void forwardUdpAgainstARealIperf2Server(@TempDir Path dir) throws Exception {
        PeerTool.require("iperf", "iperf");
        int port = IperfBinary.freePort();
        try (IperfBinary srv = IperfBinary.server(port, true)) {
            int payload = 1000;
            MeasurementSpec spec = paced(Protocol.UDP, payload)
                    .endpoint(Iperf2Peer.at(Endpoint.remote("127.0.0.1", port)))
                    .build();
            List<IntervalSample> intervals = new CopyOnWriteArrayList<>();

            MeasurementResult r = run(spec, intervals);

            assertThat(r).isInstanceOf(Iperf2Result.class);
            Iperf2Result i = (Iperf2Result) r;
            assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
            assertThat(i.remote()).as("the server's report").isPresent();
            // the far end's figures, from its report
            assertThat(metric(r, "remote", "udp4_lost_pct").value()).isBetween(0.0, 100.0);
            assertThat(metric(r, "remote", "udp4_jitter_ms")).isNotNull();
            assertThat(metric(r, "remote", "udp4_mbps").value()).isPositive();
            // every datagram but the final one is in an interval, the final one carries payload too
            assertThat(intervals.stream().mapToLong(IntervalSample::datagrams).sum()).isEqualTo(i.local().datagrams() - 1);
            assertThat(intervals.stream().mapToLong(IntervalSample::bytes).sum()).isEqualTo(i.local().bytes() - payload);

            GateReport report = gateAgainstItsOwnBaseline(r, dir);
            assertThat(report.verdicts()).extracting(v -> v.key().name()).contains("udp4_sent_mbps", "udp4_mbps");
        }
    }

    @Test
    void forwardTcpThroughTheAgentWithASecret(@TempDir Path dir) throws Exception {
        byte[] secret = "road-test-secret-7f3a".getBytes(StandardCharsets.US_ASCII);
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(secret),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            AgentPeer peer = AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                    .secret(PeerSecret.of(secret)).direction(PeerDirection.FORWARD).build();
            TransferSpec spec = paced(Protocol.TCP, 16 * 1024).endpoint(peer).build();
            List<IntervalSample> intervals = new CopyOnWriteArrayList<>();

            MeasurementResult r = run(spec, intervals);

            assertThat(r).isInstanceOf(RemoteStreamResult.class);
            assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
            RemoteStreamResult s = (RemoteStreamResult) r;
            // TCP is in order and the receiver read to the end: the agent received every byte sent here
            assertThat(s.remote().bytes()).isEqualTo(s.local().bytes());
            assertThat(r.metrics()).extracting(Metric::host).contains("local", "remote");
            assertThat(intervals).isNotEmpty();
            gateAgainstItsOwnBaseline(r, dir);

            String secretText = new String(secret, StandardCharsets.US_ASCII);
            assertThat(List.of(spec.toString(), peer.toString(), r.toString(), ResultJson.of(r).toJson(),
                    Files.readString(dir.resolve("baseline.json")))).allSatisfy(text -> assertThat(text)
                    .doesNotContain(secretText));
        }
    }
}
