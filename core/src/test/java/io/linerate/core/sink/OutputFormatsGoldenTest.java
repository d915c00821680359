package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Better;
import io.linerate.core.Bound;
import io.linerate.core.IntervalSample;
import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.testsupport.GoldenFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Seals every output format with golden files, under a locale that writes decimal points and one that writes commas. */
class OutputFormatsGoldenTest {
    private static final Locale ORIGINAL = Locale.getDefault();

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(ORIGINAL);
    }

    static List<Metric> metrics() {
        return List.of(
                Metric.of("udp4_mbps", 13.0994, "Mbit/s", 20.457993, Better.HIGHER),
                Metric.of("udp4_jitter_ms", 0.0125, "ms", 20.4579934, Better.LOWER),
                Metric.of("udp4_mbps", 1234567.891, "Mbit/s", 41.5, Better.HIGHER),
                new Metric("latency_p50", 13800, "ns", "remote", 3, Map.of("size", "64", "mode", "spin"), Better.LOWER).asAdvisory());
    }

    private static String write(Function<PrintWriter, MetricSink> sink) {
        StringWriter w = new StringWriter();
        try (MetricSink s = sink.apply(new PrintWriter(w))) {
            metrics().forEach(s::accept);
        }
        return w.toString().replace(System.lineSeparator(), "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void resultLines(String locale) throws IOException {
        setLocale(locale);
        GoldenFiles.assertMatches("result-lines.txt", write(ResultLineSink::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void ktapLines(String locale) throws IOException {
        setLocale(locale);
        GoldenFiles.assertMatches("ktap-lines.txt", write(KtapSink::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void table(String locale) throws IOException {
        setLocale(locale);
        GoldenFiles.assertMatches("table.txt", write(TableSink::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void jsonLines(String locale) throws IOException {
        setLocale(locale);
        GoldenFiles.assertMatches("json-lines.txt", write(JsonLinesSink::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void transferText(String locale) throws IOException {
        setLocale(locale);
        TransferResult udp = udpResult();
        StringBuilder sb = new StringBuilder();
        for (IntervalSample s : udp.intervals()) {
            sb.append(TransferFormat.intervalLine(s, true)).append('\n');
        }
        sb.append(TransferFormat.summaryLine(udp)).append('\n');
        TransferResult tcp = tcpResult();
        for (IntervalSample s : tcp.intervals()) {
            sb.append(TransferFormat.intervalLine(s, false)).append('\n');
        }
        sb.append(TransferFormat.summaryLine(tcp)).append('\n');
        GoldenFiles.assertMatches("transfer.txt", sb.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void transferJson(String locale) throws IOException {
        setLocale(locale);
        String json = ResultJson.transfer(udpResult()).toJson() + "\n" + ResultJson.transfer(tcpResult()).toJson() + "\n";
        GoldenFiles.assertMatches("transfer.jsonl", json);
        // One-way delays {9000, 10000, 11000, 12000, 250000} ns at 3 significant digits: values in
        // [8192, 16384) sit in slots 8 wide, those in [131072, 262144) in slots 128 wide. p50 is
        // rank ceil(2.5) = 3, 11000, whose slot 11000..11007 HdrHistogram reports by its top, 11007;
        // p99 is rank 5, 250000, whose slot 249984..250111 tops out at 250111, above the largest
        // delay, so it is clamped to the exact max 250000.
        assertThat(json).contains("\"one_way_delay_ns\":{\"min\":9000,\"p50\":11007,\"p99\":250000,"
                + "\"max\":250000,\"count\":5,\"significant_digits\":3}");
    }

    private static void setLocale(String tag) {
        Locale.setDefault(tag.equals("ROOT") ? Locale.ROOT : Locale.forLanguageTag(tag));
    }

    static TransferResult udpResult() {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV6)
                .bound(Bound.duration(Duration.ofSeconds(2))).warmup(Duration.ofMillis(500)).build();
        ExactRangeHistogram h = new ExactRangeHistogram(1, 60_000_000_000L, 3);
        for (long v : new long[] {9_000, 10_000, 11_000, 12_000, 250_000}) {
            h.record(v);
        }
        List<IntervalSample> intervals = List.of(
                new IntervalSample(0, 500_000_000L, 1_220_000, 1000, 0, OptionalDouble.of(2_500), true),
                new IntervalSample(500_000_000L, 1_500_000_000L, 1_589_248, 1302, 3, OptionalDouble.of(12_345), false),
                // no datagram arrived: jitter and loss percentage are n/a / null, never 0
                new IntervalSample(1_500_000_000L, 1_500_000_000L, 0, 0, 0, OptionalDouble.empty(), false),
                new IntervalSample(1_500_000_000L, 2_500_000_000L, 2_440_000, 2000, -1, OptionalDouble.of(4_000), false));
        return TransferResult.builder(spec).bytesSent(6_100_000).messagesSent(5000).bytesReceived(5_249_248)
                .window(500_000_000L, 2_500_000_000L).windowBytesSent(4_880_000)
                .windowBytesReceived(4_029_248)
                .udp(Optional.of(new UdpStats(5000, 4302, 698, 7, 2, OptionalDouble.of(4_000.5), h)))
                .intervals(intervals)
                .options(new AppliedOptions(0x20, 0x20, 0, 212_992, 0, 212_992, false, false))
                .senderCpuNanos(1_900_000_000L).receiverCpuNanos(1_700_000_000L)
                .senderAllocatedBytes(0).receiverAllocatedBytes(0).build();
    }

    static TransferResult tcpResult() {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).noDelay(true)
                .bound(Bound.bytes(10_000_000)).warmup(Duration.ZERO).build();
        List<IntervalSample> intervals = List.of(
                new IntervalSample(0, 1_010_000_000L, 9_000_000, 0, 0, false),
                new IntervalSample(1_010_000_000L, 1_020_000_000L, 1_000_000, 0, 0, false));
        return TransferResult.builder(spec).bytesSent(10_000_000).messagesSent(8197).bytesReceived(9_999_000)
                .window(0, 1_020_000_000L).windowBytesSent(10_000_000)
                .windowBytesReceived(9_999_000).intervals(intervals)
                .options(new AppliedOptions(0x20, 0x00, 65536, 131072, 0, 131072, true, true,
                        Optional.of(new TcpMss(AddressFamily.IPV4, 65536, 12))))
                .senderCpuNanos(1_000_000).receiverCpuNanos(2_000_000).senderAllocatedBytes(-1)
                .receiverAllocatedBytes(48)
                .invalidReasons(List.of("receiver counted 9999000 bytes but the sender sent 10000000"))
                .build();
    }
}
