package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import io.linerate.core.Transports;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RrCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Run(int exit, String out, String err) {}

    static Run rr(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // registered as a subcommand of a test-local top-level command, as the linerate command line would,
        // with linerate's converters and exit codes
        CommandLine cl = Linerate.configure(new CommandLine(new Top()).addSubcommand("rr", new RrCommand()), false);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @CommandLine.Command(name = "linerate")
    static final class Top {}

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "rr --flows 0|flows 0 is out of range; allowed: 1..1024",
        "rr --request-size 0|request size 0 bytes is out of range; allowed: 1..16777216",
        "rr --response-size 20000000|response size 20000000 bytes is out of range; allowed: 1..16777216",
        "rr --rate=-1|rate '-1' is negative; allowed: 0 or more",
        "rr --timeout=-1s|timeout -1000 ms is out of range; allowed: 1 ms..10 min, as the stream's --io-timeout",
        "rr --rate 0.5|rate '0.5' is below 1 transactions/s",
        "rr --rate 2m|rate 2000000 transactions/s is out of range; allowed: 0 (closed loop)..1000000",
        "rr --duration 0|duration 0 ms is out of range; allowed: > 0",
        "rr --percentile 101|percentile 101 is out of range; allowed: (0, 100]",
        "rr --family 5|unknown address family '5'; allowed: 4, 6",
        "rr --flows many|'many' is not a whole number",
    })
    void badUsageNamesTheValueAndExitsTwoWithoutAStackTrace(String args, String message) {
        Run r = rr(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void rateAndSizesTakeTheirSuffixes() {
        RrCommand c = new RrCommand();
        new CommandLine(c).parseArgs("--rate", "10k", "--request-size", "1K", "--response-size", "64K");
        // a rate is decimal: 10k = 10000 transactions/s; sizes are 1024-based: 1K = 1024, 64K = 65536
        assertThat(c.rate).isEqualTo(10_000);
        assertThat(c.requestSize).isEqualTo(1024);
        assertThat(c.responseSize).isEqualTo(65_536);
    }

    @Test
    void rrJsonRateIsTransactionsOverTheWindow() throws Exception {
        Run r = rr("rr", "--flows", "2", "--duration", "300ms", "--warmup", "100ms", "--request-size", "32",
                "--response-size", "64", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode whole = JSON.readTree(r.out());
        assertThat(whole.get("format").asText()).isEqualTo("linerate-result");
        assertThat(whole.get("pattern").asText()).isEqualTo("request-response");
        JsonNode j = whole.get("detail");
        assertThat(j.get("test").asText()).isEqualTo("tcp_rr");
        long n = j.get("transactions").asLong();
        long window = j.get("window_ns").asLong();
        assertThat(n).isPositive();
        assertThat(j.get("transactions_per_second").asDouble()).isEqualTo(n * 1e9 / window);
        assertThat(j.get("flows")).hasSize(2);
        assertThat(j.get("flows").get(0).get("transactions").asLong() + j.get("flows").get(1).get("transactions").asLong())
                .isEqualTo(n);
        assertThat(j.get("notes").get(0).asText()).startsWith("closed loop:");
    }

    @Test
    void crrTextAndOpenLoopKtap() {
        Run t = rr("rr", "--crr", "--duration", "200ms", "--warmup", "50ms");
        assertThat(t.exit()).as(t.err()).isZero();
        assertThat(t.out()).contains("# test: tcp_crr, latency of whole transactions in ns")
                .containsPattern("\nflow 0: [0-9]+ transactions in [0-9.]+ s, [0-9.]+ transactions/s\n")
                .contains("\ntotal: ").contains("\nlatency ns: mean ");
        Run k = rr("rr", "--rate", "1000", "--duration", "200ms", "--warmup", "50ms", "--ktap");
        assertThat(k.exit()).as(k.err()).isZero();
        assertThat(k.out()).contains("# note: open loop at 1000 transactions/s")
                .contains("# precision: HdrHistogram, 3 significant digits (values within 0.1 %)")
                .contains("{\"name\":\"transactions_per_second\",\"regression\":{\"better\":\"higher\"")
                .contains("{\"name\":\"latency_p99\",\"regression\":{\"better\":\"lower\"");
    }

    @Test
    void theNativeTransportRunsRrAndRefusesAPollingMuxerNamingIt() throws Exception {
        Assumptions.assumeTrue(Transports.byName("native").unavailabilityCause().isEmpty(),
                () -> "the native transport cannot load here: " + Transports.byName("native").unavailabilityCause().orElseThrow());
        Run r = rr("rr", "--transport", "native", "--crr", "--flows", "2", "--duration", "200ms", "--warmup", "50ms",
                "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).get("detail");
        assertThat(j.get("test").asText()).isEqualTo("tcp_crr");
        assertThat(j.get("transactions").asLong()).isPositive();
        // a connection per transaction: the server accepted one for every response it wrote
        assertThat(j.get("server").get("accepts").asLong()).isEqualTo(j.get("server").get("served").asLong());

        Run spin = rr("rr", "--transport", "native", "--muxer", "spin");
        assertThat(spin.exit()).isEqualTo(2);
        assertThat(spin.err()).contains("muxer spin is not on the native transport's request/response")
                .contains("allowed: selector").doesNotContain("\tat ");
    }
}
