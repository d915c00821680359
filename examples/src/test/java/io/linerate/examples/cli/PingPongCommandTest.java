package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Transports;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PingPongCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Keeps every size short. */
    static final List<String> SHORT = List.of("--minms", "0", "--maxms", "200", "--miniter", "200", "--maxiter", "200",
            "--warmupms", "0", "--warmupiter", "20");

    record Run(int exit, String out, String err) {}

    static Run pingpong(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.commandLine(new PingPongCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static String[] withShort(String... args) {
        return Stream.concat(Stream.of(args), SHORT.stream()).toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--protocol udp --sizes 1,65508|message size 65508 bytes is out of range: udp over IPv4 allows 1..65507 bytes",
        "--protocol udp --sizes 0|message size 0 bytes is out of range: udp over IPv4 allows 1..65507 bytes",
        "--protocol pipe --sizes 65537|message size 65537 bytes is out of range: pipe allows 1..65536 bytes",
        "--raw /nonexistent-linerate-dir|--raw /nonexistent-linerate-dir is not a writable directory; allowed: an existing directory",
        "--protocol udp --maxmsg 70000|maxmsg 70000 bytes is out of range: udp over IPv4 allows 1..65507 bytes",
        "--minmsg 64 --maxmsg 8|minmsg 64 is above maxmsg 8; allowed: minmsg <= maxmsg",
        "--minms 5000 --maxms 3000|minms 5000 is above maxms 3000; allowed: minms <= maxms",
        "--miniter 10 --maxiter 5|miniter 10 is above maxiter 5; allowed: miniter <= maxiter",
        "--miniter 0|miniter 0 is out of range; allowed: >= 1",
        "--maxiter 0|maxiter 0 is out of range; allowed: >= 1",
        "--percentile 0|percentile 0 is out of range; allowed: (0, 100]",
        "--percentile 100.5|percentile 100.5 is out of range; allowed: (0, 100]",
        "--muxer poll|unknown muxer 'poll'; allowed: blocking, selector (or epoll), spin",
        "--serv-muxer kqueue|unknown muxer 'kqueue'; allowed: blocking, selector (or epoll), spin",
        "--protocol sctp|unknown protocol 'sctp'; allowed: tcp, udp, unix_stream, unix_datagram, pipe",
        "--protocol unix_datagram --sizes 1 --transport nio|unix_datagram is not supported: Java NIO has Unix-domain "
                + "stream sockets (SocketChannel) but no Unix-domain datagram channel; the native transport (--transport native) runs it",
        "--bindtodev lo --transport nio|bindtodev lo is not on the nio transport: Java NIO cannot set SO_BINDTODEVICE; "
                + "the native transport (--transport native) binds the sockets to an interface",
        "--bindtodev nosuchif0 --sizes 1|bindtodev nosuchif0: no network interface named 'nosuchif0' on this host; allowed: one of ",
        "--bindtodev abcdefghijklmnop|bindtodev interface name 'abcdefghijklmnop' (16 bytes) is not an interface name; "
                + "allowed: 1..15 bytes (IFNAMSIZ less its NUL), no whitespace or '/'",
        "--bindtodev lo --protocol pipe|bindtodev lo applies to tcp and udp only, not pipe",
        "--timeout 0s|timeout 0 ms is out of range; allowed: 1 ms..10 min, as the stream's --io-timeout",
        "--timeout 1us|timeout 1 us is out of range; allowed: 1 ms..10 min, as the stream's --io-timeout",
        "--tclass 300|300 is out of range; allowed: 0..255 or 0x00..0xff",
        "--sizes 1,x|size 'x' is not a number; allowed: bytes, such as 1220, 64K or 1.5M",
        "--minms 5s --maxms 3000|minms 5000 is above maxms 3000; allowed: minms <= maxms",
        "--minms 5x|duration '5x' has unknown unit 'x'",
        "--maxiter 1.2345k|count '1.2345k' is 1234.5, not a whole number",
        "--ktap --json|--ktap and --json exclude each other",
        "--affinity 1|affinity '1' is not C;S; allowed: the client's CPU and the server's, each 0-1023 or any, such as 0;1",
        "--affinity 0;cpu1|affinity '0;cpu1' has 'cpu1', which is not a CPU; allowed: 0-1023 or any on each side of ';'",
        "--affinity 0;1024|the server's CPU 1024 is out of range; allowed: 0-1023 or any",
        "--affinity 1023;any|--affinity cannot pin the client to CPU 1023: CPU 1023 is not in this thread's CPU set",
    })
    void badUsageNamesTheValueAndExitsTwoWithoutAStackTrace(String args, String message) {
        Run r = pingpong(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void unixDatagramRunsOnTheNativeTransportWhenNoneIsNamed() {
        Run r = pingpong(withShort("--protocol", "unix_datagram", "--sizes", "1,64"));
        assertThat(r.exit()).as(r.err()).isZero();
        PingPongCommand c = new PingPongCommand();
        new CommandLine(c).parseArgs("--protocol", "unix_datagram");
        assertThat(Transports.forSpec(c.spec()).name()).isEqualTo("native");
        assertThat(r.out().lines().filter(l -> l.startsWith("\t")).map(l -> l.split("\t")[1]))
                .containsExactly("1", "64");
        assertThat(r.out()).contains("# applied: sndbuf ");
    }

    @Test
    void bindtodevLoBindsBothEndsOnTheNativeTransport() throws Exception {
        Run r = pingpong(withShort("--protocol", "udp", "--sizes", "8", "--bindtodev", "lo", "--json"));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode detail = JSON.readTree(r.out()).get("detail");
        assertThat(detail.get("bindtodev").asText()).isEqualTo("lo");
        assertThat(detail.get("protocol").asText()).isEqualTo("udp");
    }

    @Test
    void optionsNamedInMillisecondsTakeABareNumberOrAUnitAndSizesAndCountsTakeSuffixes() {
        PingPongCommand c = new PingPongCommand();
        new CommandLine(c).parseArgs("--minms", "500ms", "--maxms", "2s", "--warmupms", "0.5", "--sizes", "1K,64",
                "--miniter", "10k", "--maxiter", "1m");
        PingPongSpec spec = c.spec();
        // 500 ms; 2 s = 2000 ms; a bare 0.5 is 0.5 ms = 500 us
        assertThat(spec.policy().minTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(spec.policy().maxTime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(spec.policy().warmup()).isEqualTo(Duration.ofNanos(500_000));
        // sizes are 1024-based: 1K = 1024; counts are decimal: 10k = 10000, 1m = 1000000
        assertThat(spec.sizes()).containsExactly(1024, 64);
        assertThat(spec.policy().minIterations()).isEqualTo(10_000);
        assertThat(spec.policy().maxIterations()).isEqualTo(1_000_000);

        PingPongCommand bare = new PingPongCommand();
        new CommandLine(bare).parseArgs("--minms", "500");
        assertThat(bare.spec().policy().minTime()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void theTableHasTheRunFactsAndOneRowPerSize() {
        Run r = pingpong(withShort("--protocol", "udp", "--sizes", "1,64,1472", "--muxer", "selector"));
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).anyMatch(l -> l.startsWith("# linerate: "))
                .anyMatch(l -> l.startsWith("# date: "))
                .anyMatch(l -> l.startsWith("# uname: "))
                .anyMatch(l -> l.startsWith("# cpu: "))
                .anyMatch(l -> l.startsWith("# jvm: "))
                .anyMatch(l -> l.startsWith("# options: --protocol udp --sizes 1,64,1472 --muxer selector"))
                .contains("# values: half-RTT in ns (round-trip time / 2)", "#\tsize\tmean\tmin\tmedian\tmax\t%ile\tstddev\titer")
                .anyMatch(l -> l.startsWith("# applied: tclass 0x00 (requested 0x00), sndbuf "));
        List<String> rows = lines.stream().filter(l -> l.startsWith("\t")).toList();
        assertThat(rows).hasSize(3);
        for (int i = 0; i < 3; i++) {
            String[] cells = rows.get(i).substring(1).split("\t");
            assertThat(cells).hasSize(8);
            assertThat(cells[0]).isEqualTo(List.of("1", "64", "1472").get(i));
            // the iteration cap of 200 with a 200 ms time cap: at most 200 samples
            assertThat(Long.parseLong(cells[7])).isBetween(1L, 200L);
            long min = Long.parseLong(cells[2]);
            long median = Long.parseLong(cells[3]);
            long max = Long.parseLong(cells[4]);
            assertThat(min).isLessThanOrEqualTo(median);
            assertThat(median).isLessThanOrEqualTo(max);
        }
    }

    @Test
    void jsonSaysRoundTripsWhenAskedAndCarriesAppliedOptions() throws Exception {
        Run r = pingpong(withShort("--protocol", "tcp", "--sizes", "8", "--rtt", "--json", "--muxer", "spin",
                "--serv-muxer", "blocking", "--percentile", "99.9"));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode whole = JSON.readTree(r.out());
        // the one shape of every pattern's result, the sweep's own fields under "detail"
        assertThat(whole.get("format").asText()).isEqualTo("linerate-result");
        assertThat(whole.get("pattern").asText()).isEqualTo("ping-pong");
        assertThat(whole.get("valid").asBoolean()).isTrue();
        assertThat(whole.get("metrics").get(0).get("labels").get("latency").asText()).isEqualTo("rtt");
        JsonNode j = whole.get("detail");
        assertThat(j.get("format").asText()).isEqualTo("linerate-latency");
        assertThat(j.get("latency").asText()).isEqualTo("RTT");
        assertThat(j.get("percentile").asDouble()).isEqualTo(99.9);
        assertThat(j.get("muxer").asText()).isEqualTo("spin");
        assertThat(j.get("serv_muxer").asText()).isEqualTo("blocking");
        // the options object of stream and the suite, with the same names
        assertThat(j.get("options").get("nodelay_applied").asBoolean()).isTrue();
        assertThat(j.get("options").get("nodelay_requested").asBoolean()).isTrue();
        assertThat(j.get("options").get("traffic_class_applied").asInt()).isZero();
        assertThat(j.get("options").get("tcp_mss_source").asText()).startsWith("read: tcpi_snd_mss ");
        assertThat(j.has("applied")).isFalse();
        JsonNode res = j.get("results").get(0);
        assertThat(res.get("size").asInt()).isEqualTo(8);
        assertThat(res.get("iterations").asLong()).isBetween(1L, 200L);
        assertThat(res.get("min").asDouble()).isLessThanOrEqualTo(res.get("percentile_value").asDouble());
    }

    @Test
    void ktapLinesHaveLowerIsBetterPoliciesAndSizeLabels() {
        Run r = pingpong(withShort("--protocol", "pipe", "--sizes", "1,64", "--ktap"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("# linerate pingpong pipe: values are half-RTT in ns")
                .contains("\n# precision: HdrHistogram, 3 significant digits (values within 0.1 %); min and max exact, "
                        + "percentiles clamped to them\n")
                .contains("# ktap-metric-policy-json: {\"name\":\"latency_p50\",\"regression\":{\"better\":\"lower\"")
                .contains("# ktap-metric-policy-json: {\"name\":\"latency_p99\",\"regression\":{\"better\":\"lower\"");
        assertThat(r.out().lines().filter(l -> l.startsWith("# ktap-metric-json: ")
                && l.contains("\"name\":\"latency_p50\"")).toList())
                .hasSize(2)
                .anySatisfy(l -> assertThat(l).contains("\"size\":\"1\"").contains("\"latency\":\"half-rtt\""))
                .anySatisfy(l -> assertThat(l).contains("\"size\":\"64\""));
    }

    @Test
    void rawWritesOneHistogramLogPerSize(@TempDir Path dir) throws Exception {
        Path raw = Files.createDirectory(dir.resolve("raw"));
        Run r = pingpong(withShort("--protocol", "unix_stream", "--sizes", "1,32", "--raw", raw.toString()));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(raw.resolve("size-1.hlog")).exists();
        assertThat(Files.readString(raw.resolve("size-32.hlog"))).startsWith("#[Histogram log format version 1.3]");
    }

    @Test
    void aSweepOfPowersOfTwo() {
        Run r = pingpong(withShort("--protocol", "pipe", "--minmsg", "4", "--maxmsg", "40"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("\t")).map(l -> l.split("\t")[1]).toList())
                .containsExactly("4", "8", "16", "32");
    }
}
