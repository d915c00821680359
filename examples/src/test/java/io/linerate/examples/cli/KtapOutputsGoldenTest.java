package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.IntervalSample;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrReport;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.ResultJson;
import io.linerate.regression.MetricReaders;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.testsupport.GoldenFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The KTAP documents of {@code stream}, {@code pingpong} and {@code rr --ktap}, from results made
 * up here, sealed by golden files (checked by hand) under a locale that writes decimal points and
 * one that writes commas; and each document read back by the gate's reader, which must find every
 * metric under the document's test with the values derived by hand below.
 */
class KtapOutputsGoldenTest {
    private static final Locale ORIGINAL = Locale.getDefault();
    private static final RunFacts FACTS = new RunFacts("1.2.3", "2026-01-02T03:04:05Z", "Linux 6.1.0 amd64",
            "Example CPU @ 2.00GHz", "OpenJDK 64-Bit Server VM 17.0.15+6 (Example)", "--ktap");

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(ORIGINAL);
    }

    private static String document(Consumer<PrintWriter> writer) {
        StringWriter text = new StringWriter();
        writer.accept(new PrintWriter(text));
        return text.toString().replace(System.lineSeparator(), "\n");
    }

    /** @return every observation the gate reads from {@code ktap}, as {@code test/name{labels}@host = value unit} */
    private static List<String> gateReads(String source, String ktap) {
        MetricSet set = MetricReaders.read(source, ktap);
        assertThat(set.errors()).isEmpty();
        assertThat(set.skippedTests()).isEmpty();
        return set.observations().stream().map(KtapOutputsGoldenTest::describe).toList();
    }

    private static String describe(Observation o) {
        return o.key().display() + " = " + o.value() + " " + o.unit();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void streamUdp(String locale) throws IOException {
        setLocale(locale);
        TransferResult r = udpResult();
        String ktap = document(out -> {
            KtapDocument doc = KtapOutputs.streamStart(out, r.spec(), "given");
            r.intervals().forEach(s -> KtapOutputs.streamInterval(doc, s, true));
            KtapOutputs.streamEnd(doc, r);
        });
        GoldenFiles.assertMatches("ktap/stream-udp.ktap", ktap);
        // 990 of the window's 1000 datagrams of 1000 bytes arrived in its 1 s: 990000 x 8 / 1 s =
        // 7.92 Mbit/s; 10 of 1000 lost = 1 %; RFC 3550 jitter 12500 ns = 0.0125 ms; service demand:
        // (0.3 s + 0.2 s) of thread CPU = 500000 us over 1,490,000 B received = 1455.078125 KiB
        assertThat(gateReads("stream-udp.ktap", ktap)).containsExactly(
                "udp4/udp4_mbps@local = 7.92 Mbit/s",
                "udp4/udp4_jitter_ms@local = 0.0125 ms",
                "udp4/udp4_lost_pct@local = 1.0 %",
                "udp4/udp4_cpu_us_per_kb@local = 343.6241610738255 us/KiB");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void streamTcpInvalid(String locale) throws IOException {
        setLocale(locale);
        TransferResult r = tcpResult();
        String ktap = document(out -> {
            KtapDocument doc = KtapOutputs.streamStart(out, r.spec(), "iperf3's default TCP write (128 KiB)");
            r.intervals().forEach(s -> KtapOutputs.streamInterval(doc, s, false));
            KtapOutputs.streamEnd(doc, r);
        });
        GoldenFiles.assertMatches("ktap/stream-tcp-invalid.ktap", ktap);
        assertThat(ktap).contains("\nnot ok 1 tcp6_nodelay # invalid: no payload byte arrived in the measured window\n")
                .endsWith("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n");
        // no byte arrived in a window of 0.25 s: 0 Mbit/s, a real figure the gate must see
        assertThat(gateReads("stream-tcp.ktap", ktap)).containsExactly("tcp6_nodelay/tcp6_nodelay_mbps@local = 0.0 Mbit/s");
    }

    static final PingPongSpec PINGPONG_SPEC = PingPongSpec.builder().protocol(PingPongProtocol.TCP)
            .family(AddressFamily.IPV4).sizes(List.of(1, 64)).clientMuxer(Muxer.SPIN).serverMuxer(Muxer.BLOCKING)
            .mode(LatencyMode.HALF_RTT).build();

    static PingPongResult pingpongResult() {
        LatencyReport report = new LatencyReport(FACTS, LatencyMode.HALF_RTT, 99, List.of(
                new SizeLatency(1, histogram(400, 600, 800, 1000, 1200), 1_000_000, 1.5),
                new SizeLatency(64, histogram(2000), 1_000, 2.25)));
        return new PingPongResult(PINGPONG_SPEC, report, new AppliedOptions(0, 0, 0, 2_626_560, 0, 131_072, true, true,
                Optional.of(new TcpMss(AddressFamily.IPV4, 65536, 12))), List.of(), 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void pingpongJsonReportsTheOptionsInStreamsSchema(String locale) throws IOException {
        setLocale(locale);
        PingPongResult r = pingpongResult();
        String json = ResultJson.of(r).toJson();
        GoldenFiles.assertMatches("pingpong.json", json + "\n");
        // the same options object, field for field, as a TCP stream that applied the same options
        TransferResult tcp = tcpResult();
        TransferResult sameOptions = TransferResult.builder(tcp.spec()).bytesSent(0).messagesSent(0).bytesReceived(0).window(0, 1)
                .windowBytesSent(0).windowBytesReceived(0).options(r.options()).senderCpuNanos(0)
                .receiverCpuNanos(0).senderAllocatedBytes(0).receiverAllocatedBytes(0).build();
        String streamJson = io.linerate.core.sink.ResultJson.of(sameOptions).toJson();
        String options = "\"options\":{\"traffic_class_requested\":0,\"traffic_class_applied\":0,"
                + "\"sndbuf_requested\":0,\"sndbuf_applied\":2626560,\"rcvbuf_requested\":0,\"rcvbuf_applied\":131072,"
                + "\"nodelay_requested\":true,\"nodelay_applied\":true,\"tcp_mss\":65483,\"tcp_mss_source\":\"derived: "
                + "MTU 65536 (an IPv4 datagram holds 65535) - 20 IPv4 - 20 TCP - 12 timestamps\"}";
        assertThat(json).contains(options);
        assertThat(streamJson).contains(options);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void pingpong(String locale) throws IOException {
        setLocale(locale);
        PingPongSpec spec = PINGPONG_SPEC;
        PingPongResult r = pingpongResult();
        String ktap = document(out -> KtapOutputs.pingpong(out, spec, r));
        GoldenFiles.assertMatches("ktap/pingpong.ktap", ktap);
        // half of the round trips {400, 600, 800, 1000, 1200} ns, all held exactly below 2048:
        // mean 400, min 200, median (rank 3 of 5) 400, p99 (rank 5) 600, max 600, population
        // deviation sqrt((200^2 + 100^2 + 0 + 100^2 + 200^2) / 5) = sqrt(20000) = 141.42...;
        // size 64: the one round trip of 2000 ns, half 1000, deviation 0
        String l1 = "{latency=half-rtt,muxer=spin,protocol=tcp,size=1}@local";
        String l64 = "{latency=half-rtt,muxer=spin,protocol=tcp,size=64}@local";
        String t = "pingpong_tcp/";
        assertThat(gateReads("pingpong.ktap", ktap)).containsExactly(
                t + "latency_mean" + l1 + " = 400.0 ns", t + "latency_min" + l1 + " = 200.0 ns",
                t + "latency_p50" + l1 + " = 400.0 ns", t + "latency_p99" + l1 + " = 600.0 ns",
                t + "latency_max" + l1 + " = 600.0 ns", t + "latency_stddev" + l1 + " = " + Math.sqrt(20_000) + " ns",
                t + "latency_mean" + l64 + " = 1000.0 ns", t + "latency_min" + l64 + " = 1000.0 ns",
                t + "latency_p50" + l64 + " = 1000.0 ns", t + "latency_p99" + l64 + " = 1000.0 ns",
                t + "latency_max" + l64 + " = 1000.0 ns", t + "latency_stddev" + l64 + " = 0.0 ns");
    }

    @org.junit.jupiter.api.Test
    void aPingPongSizeWithoutMeasuredRoundTripsMakesTheResultInvalid() {
        // size 1 has five samples, size 64 none: its statistics do not exist, so the result is invalid
        LatencyReport report = new LatencyReport(FACTS, LatencyMode.HALF_RTT, 99, List.of(
                new SizeLatency(1, histogram(400, 600, 800, 1000, 1200), 1_000_000, 1.5),
                new SizeLatency(64, histogram(), 0, 2.25)));
        PingPongResult r = new PingPongResult(PINGPONG_SPEC, report, pingpongResult().options(), List.of(), 0);
        assertThat(r.invalidReasons()).containsExactly("no round trip of 64-byte messages was measured");
        String ktap = document(out -> KtapOutputs.pingpong(out, PINGPONG_SPEC, r));
        assertThat(ktap).contains("\nnot ok 1 pingpong_tcp # invalid: no round trip of 64-byte messages was measured\n");
        // the size without samples yields no metric: only size 1's six
        assertThat(r.metrics()).hasSize(6);
        assertThat(ResultJson.of(r).toJson()).contains("\"valid\":false,\"invalid_reasons\":[\"no round trip of "
                + "64-byte messages was measured\"]");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void rr(String locale) throws IOException {
        setLocale(locale);
        RrResult r = rrResult();
        String ktap = document(out -> KtapOutputs.rr(out, RR_SPEC, r));
        GoldenFiles.assertMatches("ktap/rr.ktap", ktap);
        // every metric is stamped with the window's length, 800000000 ns = 0.8 s
        assertThat(ktap).contains("\"time\":0.8,").doesNotContain("\"time\":1");
        // the in-JVM server's own counts, the result's: 2 connections, 2100 responses, 2100 transactions
        assertThat(ktap).contains("\n# server: the server in this JVM accepted 2 connections and served 2100 responses; "
                + "2100 transactions completed here, warm-up included\n");
        // 2000 transactions in 0.8 s = 2500/s; flow 0: 1500 / 0.8 = 1875/s, flow 1: 500 / 0.8 = 625/s;
        // latency {100, 200, 300, 400, 1000} ns: median (rank 3) 300, p99 (rank 5) 1000, mean 400
        assertThat(gateReads("rr.ktap", ktap)).containsExactly(
                "tcp_rr/transactions_per_second{flow=all,test=tcp_rr}@local = 2500.0 transactions/s",
                "tcp_rr/transactions_per_second{flow=0,test=tcp_rr}@local = 1875.0 transactions/s",
                "tcp_rr/transactions_per_second{flow=1,test=tcp_rr}@local = 625.0 transactions/s",
                "tcp_rr/latency_p50{latency=rtt,test=tcp_rr}@local = 300.0 ns",
                "tcp_rr/latency_p99{latency=rtt,test=tcp_rr}@local = 1000.0 ns",
                "tcp_rr/latency_mean{latency=rtt,test=tcp_rr}@local = 400.0 ns");
    }

    static final RrSpec RR_SPEC = RrSpec.builder().flows(2).build();

    /** Two flows that completed 1500 and 500 transactions in a window of 0.8 s. */
    static RrResult rrResult() {
        RrReport report = new RrReport(FACTS, "tcp_rr", List.of(1500L, 500L), 800_000_000L,
                histogram(100, 200, 300, 400, 1000), 99, List.of(RrReport.CLOSED_LOOP_NOTE));
        return new RrResult(RR_SPEC, report, 2100, 2, 2100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void rrJsonIsTheResultShapeWithTheReportAsItsDetail(String locale) throws IOException {
        setLocale(locale);
        String json = ResultJson.of(rrResult()).toJson();
        GoldenFiles.assertMatches("rr.json", json + "\n");
        // valid: the window has a length and transactions in it; the rate metric of all flows is
        // 2000 / 0.8 s = 2500/s, and the detail is the report's own JSON with the spec's sizes,
        // rate and muxer (defaults: 1 B each way, closed loop, selector)
        assertThat(json).startsWith("{\"format\":\"linerate-result\",\"version\":1,\"pattern\":\"request-response\",\"test\":\"tcp_rr\","
                + "\"valid\":true,\"invalid_reasons\":[],\"metrics\":[{\"host\":\"local\",\"labels\":{\"flow\":\"all\","
                + "\"test\":\"tcp_rr\"},\"name\":\"transactions_per_second\",\"shape\":\"scalar\",\"time\":0.8,"
                + "\"unit\":\"transactions/s\",\"value\":2500.0}")
                .contains("\"detail\":{\"format\":\"linerate-rr\"")
                .endsWith("\"request_bytes\":1,\"response_bytes\":1,\"rate\":0,\"muxer\":\"selector\","
                        + "\"server\":{\"accepts\":2,\"served\":2100,\"remote\":false}}}");
    }

    @org.junit.jupiter.api.Test
    void rrAgainstAPeerSaysItsServerCountsAreTheAgents() {
        RrResult local = rrResult();
        RrSpec spec = RrSpec.builder().flows(2).endpoint(io.linerate.core.Endpoint.remote("198.18.0.2", 7001)).build();
        RrResult r = new RrResult(spec, local.report(), 2100, 2, 2101);
        assertThat(ResultJson.of(r).toJson()).endsWith("\"server\":{\"accepts\":2,\"served\":2101,\"remote\":true}}}");
        assertThat(document(out -> KtapOutputs.rr(out, spec, r))).contains("\n# remote: the agent at 198.18.0.2:7001 "
                + "accepted 2 connections and served 2101 responses; 2100 transactions completed here, warm-up included\n");
    }

    static ExactRangeHistogram histogram(long... nanos) {
        ExactRangeHistogram h = LatencyHistograms.create();
        for (long v : nanos) {
            h.record(v);
        }
        return h;
    }

    /** 1000 datagrams of 1000 bytes sent in a window of 1 s after 0.5 s of warm-up; 990 arrived. */
    static TransferResult udpResult() {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1000)
                .bound(Bound.duration(Duration.ofSeconds(1))).warmup(Duration.ofMillis(500))
                .rateBitsPerSecond(8_000_000).build();
        List<IntervalSample> intervals = List.of(
                new IntervalSample(0, 500_000_000L, 500_000, 500, 0, OptionalDouble.of(10_000), true),
                new IntervalSample(500_000_000L, 1_500_000_000L, 990_000, 990, 10, OptionalDouble.of(12_500), false));
        return TransferResult.builder(spec).bytesSent(1_500_000).messagesSent(1500).bytesReceived(1_490_000)
                .window(500_000_000L, 1_500_000_000L).windowBytesSent(1_000_000)
                .windowBytesReceived(990_000)
                .udp(Optional.of(new UdpStats(1000, 990, 10, 1, 0, OptionalDouble.of(12_500), histogram(20_000, 30_000))))
                .intervals(intervals)
                .options(new AppliedOptions(0x20, 0x20, 0, 212_992, 0, 212_992, false, false))
                .senderCpuNanos(300_000_000L).receiverCpuNanos(200_000_000L).senderAllocatedBytes(0)
                .receiverAllocatedBytes(0).build();
    }

    /** A TCP window of 0.25 s in which no payload byte arrived. */
    static TransferResult tcpResult() {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV6).noDelay(true).payloadBytes(131_072)
                .bound(Bound.duration(Duration.ofMillis(250))).warmup(Duration.ZERO).build();
        return TransferResult.builder(spec).bytesSent(131_072).messagesSent(1).bytesReceived(0)
                .window(0, 250_000_000L).windowBytesSent(131_072).windowBytesReceived(0)
                .intervals(List.of(new IntervalSample(0, 250_000_000L, 0, 0, 0, false)))
                .options(new AppliedOptions(0x20, 0x20, 0, 2_626_560, 0, 131_072, true, true,
                        Optional.of(new TcpMss(AddressFamily.IPV6, 65536, 12))))
                .senderCpuNanos(1_000_000).receiverCpuNanos(2_000_000).senderAllocatedBytes(0)
                .receiverAllocatedBytes(0)
                .invalidReasons(List.of("no payload byte arrived in the measured window")).build();
    }

    private static void setLocale(String tag) {
        Locale.setDefault(tag.equals("ROOT") ? Locale.ROOT : Locale.forLanguageTag(tag));
    }
}
