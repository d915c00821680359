package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.nio.channels.ServerSocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LinerateCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one run of the command line printed. */
    record Run(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    static Run linerate(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "stream --payload 0|payload 0 bytes is out of range: TCP allows 1..67108864 bytes",
        "stream --protocol udp --payload 65508|payload 65508 bytes is out of range: UDP over IPv4 allows 32..65507 bytes",
        "stream --protocol udp --family 6 --payload 65528|payload 65528 bytes is out of range: UDP over IPv6 allows 32..65527 bytes",
        "stream --duration 0|duration 0 ms is out of range; allowed: > 0",
        "stream --duration=-1s|duration -1000 ms is out of range; allowed: > 0",
        "stream --payload=-1|payload -1 bytes is out of range: TCP allows 1..67108864 bytes",
        "stream --messages=-3k|message count -3000 is out of range; allowed: > 0",
        "stream --bytes=-1K|byte count -1024 is out of range; allowed: > 0",
        "serve --max-payload=-1|max payload -1 bytes is out of range; allowed: 1 or more",
        "pingpong --maxiter=-1|maxiter -1 is out of range; allowed: >= 1",
        "stream --interval 1ns|interval 1 ns is out of range; allowed: 10 ms..1 day",
        "loopback --interval 999us|interval 999 us is out of range; allowed: 10 ms..1 day",
        "stream --duration 2d|duration '2d' has unknown unit 'd'; allowed: ns, us, ms, s, m (minutes), h",
        "stream --rate=-5|rate '-5' is negative; allowed: 0 or more",
        "stream --rate 5X|rate '5X' has unknown suffix 'X'; allowed: k, m, g, t (decimal), optionally followed by bit/s",
        "stream --protocol udp --rate 0.5|rate '0.5' is below 1 bit/s, and 0 would mean unlimited; allowed: 0 or 1..",
        "stream --rate 5MB|rate '5MB' has unknown suffix 'MB'",
        "stream --port 70000|port 70000 is out of range; allowed: 0 (ephemeral)..65535",
        "stream --pacing-timer 20ms|pacing timer 20000000 ns is out of range; allowed: 0 (a wake-up per message)..10000000 ns (10 ms)",
        "stream --payload abc|size 'abc' is not a number; allowed: bytes, such as 1220, 64K or 1.5M",
        "stream --payload 99999999999999999999|size '99999999999999999999' is too large",
        "stream --payload 4G|size '4G' is 4294967296 bytes; allowed: at most 2147483647 bytes, within the option's own range",
        "stream --bytes 2X|size '2X' has unknown suffix 'X'; allowed: K, M, G, T (1024-based)",
        "stream --bytes 1.1K|size '1.1K' is 1126.4 bytes, not a whole number of bytes",
        "stream --messages 1.5|count '1.5' is 1.5, not a whole number",
        "stream --duration 500|duration '500' has no unit; allowed units: ns, us, ms, s, m (minutes), h, such as 500ms or 500s",
        "stream --protocol sctp|unknown protocol 'sctp'; allowed: tcp, udp",
        "stream --tclass 300|300 is out of range; allowed: 0..255 or 0x00..0xff",
        "stream --ktap --json|--ktap and --json exclude each other; choose one output format",
        "stream --format text --json|--format text and --json exclude each other; choose one output format",
        "search --max-trials abc|'abc' is not a whole number; allowed: digits only, 1..1000",
        "serve --port 99999999999|'99999999999' is too large a number for this option; allowed: 0..65535",
        "stream --peer 127.0.0.1:1 --parallel 99999999999|'99999999999' is too large a number for this option; allowed: 1..128",
        "stream --peer 127.0.0.1:abc --duration 1s|peer port 'abc' in '127.0.0.1:abc' is not a number; allowed: 1..65535",
        "stream --duration 1s --bytes 10|mutually exclusive",
        "loopback --markers udp4,udp9|unknown marker 'udp9'; allowed: udp4, udp4_frag, tcp4, tcp4_nodelay, udp6, udp6_frag, tcp6, tcp6_nodelay",
        "loopback --format xml|expected one of [text, ktap, json] (case-sensitive) but was 'xml'",
        "loopback --family 5|unknown family '5'; allowed: 4, 6, both",
        "loopback --family 4 --markers tcp6|have none of family 4",
        "loopback --repeat 0|repeat 0 is out of range; allowed: 1..10000",
        "loopback --markers ,|--markers names no marker (its value is empty or only commas); allowed: one or more of "
                + "udp4, udp4_frag, tcp4, tcp4_nodelay, udp6, udp6_frag, tcp6, tcp6_nodelay, comma-separated",
        "loopback --markers tcp4,udp4,tcp4|--markers names tcp4 twice; allowed: each marker once (--repeat N runs each N times)",
        "loopback --markers tcp4,tcp6_nodelay --zero-loss|--zero-loss searches the zero-loss rate of udp markers, and the "
                + "markers tcp4, tcp6_nodelay have none (TCP retransmits what it loses); allowed: --zero-loss with a udp "
                + "marker in --markers, such as tcp4,tcp6_nodelay,udp4, or no --zero-loss",
        "loopback --frag-payload 70000|frag payload 70000 bytes is out of range: UDP over IPv4 allows 32..65507 bytes",
        "loopback --duration 1x|duration '1x' has unknown unit 'x'",
        "serve --transport afpacket|the afpacket transport offers no ends for a peer's run, so linerate's agent's ends "
                + "cannot run on it; transports that offer them: nio",
        "serve --transport carrier-pigeon|no transport named 'carrier-pigeon'",
        "serve --iperf3 --transport nio|--transport does not apply to --iperf3: its server's ends are the JDK's sockets",
        "nosuchcommand|Unmatched argument at index 0: 'nosuchcommand'",
    })
    void badUsageNamesTheValueAndExitsTwoWithoutAStackTrace(String args, String message) {
        Run r = linerate(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aCountersDirWhoseParentIsMissingIsRefusedAndNotCreated(@TempDir Path tmp) {
        Path typo = tmp.resolve("nosuch").resolve("counters");
        Run r = linerate("stream", "--counters-dir", typo.toString(), "--duration", "100ms", "--warmup", "0s");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("--counters-dir " + typo + ": its parent " + typo.getParent() + " is not a directory; "
                + "allowed: a directory that exists, or a new one in a directory that exists (linerate creates the last "
                + "level only)");
        assertThat(r.out()).isEmpty();
        assertThat(tmp.resolve("nosuch")).doesNotExist();
    }

    @Test
    void aMissingCountersDirInAnExistingParentIsCreated(@TempDir Path tmp) {
        Path dir = tmp.resolve("counters");
        Run r = linerate("stream", "--counters-dir", dir.toString(), "--duration", "100ms", "--warmup", "0s",
                "--interval", "50ms");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(dir).isDirectory();
    }

    @Test
    void streamRatesAreDecimalAndByteCountsAre1024Based() {
        StreamCommand c = new StreamCommand();
        new picocli.CommandLine(c).parseArgs("--rate", "2.5G", "--bytes", "64K");
        // 2.5 x 10^9 bit/s; 64 x 1024 bytes
        assertThat(c.transfer.rate).isEqualTo(2_500_000_000L);
        assertThat(c.bound.bytes).isEqualTo(65_536L);
        StreamCommand iperf = new StreamCommand();
        new picocli.CommandLine(iperf).parseArgs("--rate", "100m", "--messages", "10k");
        // 100m is 100 Mbit/s as in iperf3 (10^8), not milli; 10k messages = 10^4
        assertThat(iperf.transfer.rate).isEqualTo(100_000_000L);
        assertThat(iperf.bound.messages).isEqualTo(10_000L);
    }

    @Test
    void helpStatesTheValueGrammar() {
        for (String command : List.of("stream", "loopback", "pingpong", "rr", "raw")) {
            Run r = linerate(command, "--help");
            assertThat(r.exit()).isZero();
            assertThat(r.out()).as(command).contains("2.5G = 2500000000").contains("64K = 65536")
                    .contains("10k = 10000").contains("m = minutes");
        }
    }

    @Test
    void aPortInUseIsAUsageError() throws Exception {
        try (ServerSocketChannel taken = ServerSocketChannel.open()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            Run r = linerate("stream", "--port", Integer.toString(port), "--duration", "100ms");
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.err()).contains("TCP port " + port + " on 127.0.0.1 is already in use")
                    .doesNotContain("Exception");
            Run suite = linerate("loopback", "--port", Integer.toString(port), "--markers", "tcp4,tcp6");
            assertThat(suite.exit()).isEqualTo(2);
            assertThat(suite.err()).contains("TCP port " + port + " on 127.0.0.1 is already in use");
            // the suite stops at the first usage error: tcp6 never ran
            assertThat(suite.out()).doesNotContain("tcp6");
        }
    }

    @Test
    void loopbackSuitePrintsEveryMarkerAndDone() {
        Run r = linerate("loopback", "--duration", "200ms", "--warmup", "50ms");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.lines();
        for (String marker : List.of("udp4", "udp4_frag", "tcp4", "tcp4_nodelay", "udp6", "udp6_frag", "tcp6", "tcp6_nodelay")) {
            boolean result = lines.stream().anyMatch(l -> Pattern.matches("ZPERF-RESULT " + marker + "_mbps=\\d+\\.\\d{3}", l));
            boolean skipped = lines.stream().anyMatch(l -> l.startsWith("# " + marker + " skipped: "));
            assertThat(result || skipped).as("marker %s in%n%s", marker, r.out()).isTrue();
            assertThat(result && skipped).isFalse();
            assertThat(skipped).isEqualTo(marker.endsWith("_frag"));
        }
        assertThat(lines.get(lines.size() - 1)).isEqualTo("ZPERF-DONE");
        assertThat(lines).filteredOn(l -> l.startsWith("ZPERF-DONE")).hasSize(1);
    }

    @Test
    void ktapOutputIsAKtapDocumentWithMetricLines() throws Exception {
        Run r = linerate("loopback", "--ktap", "--markers", "tcp4,udp4_frag", "--duration", "200ms", "--warmup", "50ms");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.lines();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..2");
        assertThat(lines).contains("ok 1 tcp4");
        assertThat(lines).anyMatch(l -> l.startsWith("ok 2 udp4_frag # SKIP loopback MTU "));
        assertThat(lines).contains("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0");
        String prefix = "# ktap-metric-json: ";
        JsonNode metric = JSON.readTree(lines.stream().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow()
                .substring(prefix.length()));
        assertThat(metric.get("name").asText()).isEqualTo("tcp4_mbps");
        assertThat(metric.get("host").asText()).isEqualTo("local");
        assertThat(metric.get("shape").asText()).isEqualTo("scalar");
        assertThat(metric.get("unit").asText()).isEqualTo("Mbit/s");
        String zperf = lines.stream().filter(l -> l.startsWith("ZPERF-RESULT tcp4_mbps=")).findFirst().orElseThrow();
        assertThat(zperf).isEqualTo(String.format(java.util.Locale.ROOT, "ZPERF-RESULT tcp4_mbps=%.3f",
                metric.get("value").asDouble()));
        // a TCP marker's metrics: goodput (higher is better) and service demand (lower is better)
        assertThat(lines).filteredOn(l -> l.startsWith("# ktap-metric-policy-json: "))
                .anySatisfy(l -> assertThat(l).contains("\"name\":\"tcp4_mbps\"").contains("\"better\":\"higher\""))
                .anySatisfy(l -> assertThat(l).contains("\"name\":\"tcp4_cpu_us_per_kb\"").contains("\"better\":\"lower\""));
    }

    @Test
    void streamJsonSummaryHasTheDocumentedFields() throws Exception {
        Run tcp = linerate("stream", "--protocol", "tcp", "--family", "6", "--duration", "300ms", "--json");
        assertThat(tcp.exit()).as(tcp.err()).isZero();
        JsonNode whole = JSON.readTree(tcp.out());
        // the one result shape of every pattern, with the stream's own fields under "detail"
        assertThat(whole.get("format").asText()).isEqualTo("linerate-result");
        assertThat(whole.get("pattern").asText()).isEqualTo("stream");
        assertThat(whole.get("valid").asBoolean()).isEqualTo(whole.get("invalid_reasons").isEmpty());
        JsonNode t = whole.get("detail");
        assertThat(whole.get("metrics").get(0).get("name").asText()).isEqualTo("tcp6_mbps");
        // Mbit/s is bits_per_second / 10^6
        assertThat(whole.get("metrics").get(0).get("value").asDouble())
                .isCloseTo(t.get("bits_per_second").asDouble() / 1e6, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(t.get("protocol").asText()).isEqualTo("tcp");
        // cost: both threads' CPU per KiB received is the metric; instructions are counted where the
        // host has hardware counters (linerate-native's perf_event provider is on this class path), and
        // otherwise say why, never 0
        JsonNode demand = t.get("service_demand_us_per_kib");
        assertThat(demand.get("threads").asDouble()).isPositive();
        assertThat(demand.get("basis").asText()).contains("both ends run in this process");
        double expectedDemand = (t.get("cpu_ns").get("sender").asLong() + t.get("cpu_ns").get("receiver").asLong()) / 1e3
                / (t.get("bytes_received").asLong() / 1024.0);
        assertThat(demand.get("threads").asDouble()).isCloseTo(expectedDemand, org.assertj.core.data.Percentage.withPercentage(1e-6));
        JsonNode insns = t.get("instructions");
        if (insns.has("unavailable")) {
            assertThat(insns.get("unavailable").asText()).startsWith("perf_event: perf_event_open(instructions) failed: ");
            assertThat(insns.has("per_byte")).isFalse();
        } else {
            assertThat(insns.get("per_byte").asDouble()).isPositive();
        }
        assertThat(t.get("family").asInt()).isEqualTo(6);
        // iperf3's default TCP write: 128 KiB = 131072 bytes
        assertThat(t.get("payload").asInt()).isEqualTo(131_072);
        assertThat(t.get("options").get("tcp_mss").asInt()).isPositive();
        // read from both ends' tcp_info: the native layer is on this module's class path
        assertThat(t.get("options").get("tcp_mss_source").asText()).startsWith("read: tcpi_snd_mss ");
        assertThat(t.get("duration_s").asDouble()).isGreaterThanOrEqualTo(0.3);
        assertThat(t.get("bytes_received").asLong()).isEqualTo(t.get("bytes_sent").asLong()).isPositive();
        double expected = t.get("window_bytes_received").asLong() * 8 / t.get("duration_s").asDouble();
        assertThat(t.get("bits_per_second").asDouble()).isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1e-6));

        Run udp = linerate("stream", "--protocol", "udp", "--payload", "1400", "--duration", "300ms", "--rate", "100M", "--json");
        assertThat(udp.exit()).as(udp.err()).isZero();
        JsonNode u = JSON.readTree(udp.out()).get("detail");
        for (String f : List.of("datagrams_sent", "datagrams_received", "lost", "reordered", "duplicates", "jitter_ms")) {
            assertThat(u.has(f)).as(f).isTrue();
        }
        assertThat(u.get("datagrams_received").asLong() + u.get("lost").asLong()).isEqualTo(u.get("datagrams_sent").asLong());
        assertThat(u.get("options").get("traffic_class_applied").asInt()).isEqualTo(0x20);
    }

    @Test
    void streamTextPrintsIperfStyleIntervals() {
        Run r = linerate("stream", "--protocol", "udp", "--duration", "400ms", "--interval", "100ms", "--warmup", "100ms");
        assertThat(r.exit()).as(r.err()).isZero();
        Pattern interval = Pattern.compile(" ?\\d+\\.\\d{2}- ?\\d+\\.\\d{2} sec  \\d+ Bytes  \\d+\\.\\d{2} [KMG]?bits/sec  "
                + "\\d+\\.\\d{3} ms  -?\\d+/\\d+ \\(.*\\)(  \\(omitted\\))?");
        List<String> intervals = r.lines().stream().filter(l -> l.contains(" sec  ")).toList();
        // How many intervals a loaded host fits into 500 ms varies; what always holds: every line has
        // iperf's shape, the warm-up's intervals come first and are marked omitted, at least one
        // measured interval follows, and each interval starts where the one before it ended.
        assertThat(intervals).allMatch(l -> interval.matcher(l).matches());
        List<String> omitted = intervals.stream().takeWhile(l -> l.endsWith("(omitted)")).toList();
        assertThat(omitted).isNotEmpty();
        assertThat(intervals.subList(omitted.size(), intervals.size())).isNotEmpty().noneMatch(l -> l.endsWith("(omitted)"));
        Pattern bounds = Pattern.compile(" ?(\\d+\\.\\d{2})- ?(\\d+\\.\\d{2}) sec.*");
        String previousEnd = "0.00";
        for (String line : intervals) {
            Matcher m = bounds.matcher(line);
            assertThat(m.matches()).isTrue();
            assertThat(m.group(1)).as(line).isEqualTo(previousEnd);
            previousEnd = m.group(2);
        }
    }

    @Test
    void countBoundStream() throws Exception {
        Run r = linerate("stream", "--protocol", "tcp", "--bytes", "5000000", "--payload", "1220", "--warmup", "0s", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode t = JSON.readTree(r.out()).get("detail");
        assertThat(t.get("bytes_sent").asLong()).isEqualTo(5_000_000);
        assertThat(t.get("bytes_received").asLong()).isEqualTo(5_000_000);
        assertThat(t.get("messages_sent").asLong()).isEqualTo(4099); // 4098 writes of 1220 and one of 1040

        Run k = linerate("stream", "--protocol", "tcp", "--bytes", "5M", "--warmup", "0s", "--json");
        assertThat(k.exit()).as(k.err()).isZero();
        JsonNode d = JSON.readTree(k.out()).get("detail");
        // 5M = 5 x 2^20 = 5242880 bytes, in 40 default writes of 128 KiB (5 x 2^20 / 2^17)
        assertThat(d.get("bytes_received").asLong()).isEqualTo(5_242_880);
        assertThat(d.get("messages_sent").asLong()).isEqualTo(40);
    }

    @Test
    void streamUdpDefaultsToADatagramThatDoesNotFragmentAndSaysSo() throws Exception {
        long mtu = io.linerate.suite.LoopbackSuite.loopbackMtu().orElseThrow();
        org.junit.jupiter.api.Assumptions.assumeTrue(mtu >= 1488, "loopback MTU " + mtu + " is below 1460 + 28");
        Run r = linerate("stream", "--protocol", "udp", "--messages", "10", "--warmup", "0s");
        assertThat(r.exit()).as(r.err()).isZero();
        // loopback MTU 65536 carries 65507 bytes of UDP payload whole; the default is capped at 1460
        assertThat(r.out()).contains("udp4 payload=1460B").containsPattern(
                "# payload 1460 B: the largest datagram that does not fragment at loopback MTU \\d+ is \\d+ B "
                        + "\\(MTU - 20 IPv4 - 8 UDP\\), capped at iperf3's default of 1460 B");
    }

    @Test
    void aUdpWindowWithoutDatagramsIsInvalidAndHasNoLossOrJitter() throws Exception {
        // at 1 bit/s a 1460-byte datagram leaves once its last byte is due, 1460 x 8 / 1 = 11680 s
        // after the window opens: none in a 300 ms window without warm-up. Loss and jitter of no
        // datagrams do not exist: null in JSON, absent from ktap, not 0.
        Run r = linerate("stream", "--protocol", "udp", "--payload", "1460", "--rate", "1", "--duration", "300ms",
                "--warmup", "0s", "--json");
        JsonNode whole = JSON.readTree(r.out());
        JsonNode u = whole.get("detail");
        assertThat(whole.get("valid").asBoolean()).isFalse();
        // nothing was sent, so there is no figure for a gate at all
        assertThat(whole.get("metrics").isEmpty()).isTrue();
        assertThat(whole.get("invalid_reasons")).isEqualTo(u.get("reasons"));
        assertThat(u.get("datagrams_sent").asLong()).isZero();
        assertThat(u.get("lost").isNull()).isTrue();
        assertThat(u.get("lost_percent").isNull()).isTrue();
        assertThat(u.get("jitter_ms").isNull()).isTrue();
        assertThat(u.get("valid").asBoolean()).isFalse();
        assertThat(u.get("reasons").get(0).asText()).startsWith("no datagram was sent in the measured window of ")
                .endsWith(": at 1 bit/s one 1460-byte message leaves every 11680.000 s, so lengthen the duration or raise the rate");
        assertThat(r.exit()).isEqualTo(1);
        Run k = linerate("stream", "--protocol", "udp", "--payload", "1460", "--rate", "1", "--duration", "300ms",
                "--warmup", "0s", "--ktap");
        // nothing was sent, so there is no figure for a gate at all, only the invalid test and its reason
        assertThat(k.out()).doesNotContain("ktap-metric-json").contains("jitter n/a ms")
                .contains("not ok 1 udp4 # invalid: no datagram was sent in the measured window");
    }
}
