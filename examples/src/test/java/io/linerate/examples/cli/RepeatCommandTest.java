package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code --repeat N} on the measuring commands: N results, each a KTAP test or a JSON line of its own. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RepeatCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] STREAM = {"stream", "--duration", "200ms", "--warmup", "0s", "--repeat", "2"};
    private static final String[] PINGPONG = {"pingpong", "--sizes", "1", "--minms", "20", "--maxms", "200",
        "--miniter", "10", "--warmupms", "0", "--warmupiter", "10", "--repeat", "2"};
    private static final String[] RR = {"rr", "--duration", "200ms", "--warmup", "50ms", "--repeat", "2"};

    record Run(int exit, String out, String err) {
        List<JsonNode> jsonLines() throws Exception {
            List<JsonNode> lines = new ArrayList<>();
            for (String l : out.split("\n")) {
                lines.add(JSON.readTree(l));
            }
            return lines;
        }
    }

    private static Run linerate(String[] base, String... more) {
        List<String> args = new ArrayList<>(List.of(base));
        args.addAll(List.of(more));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void streamJsonWritesOneLinePerRunWithItsIndex() throws Exception {
        Run r = linerate(STREAM, "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> runs = r.jsonLines();
        assertThat(runs).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode n = runs.get(i);
            assertThat(n.get("run").asInt()).isEqualTo(i + 1);
            assertThat(n.get("format").asText()).isEqualTo("linerate-result");
            assertThat(n.get("test").asText()).isEqualTo("tcp4");
            assertThat(n.get("valid").asBoolean()).isTrue();
            assertThat(n.has("interrupted")).isFalse();
            assertThat(n.get("detail").get("bytes_received").asLong()).isPositive();
        }
    }

    @Test
    void streamKtapMakesEachRunATestOfOneDocument() {
        Run r = linerate(STREAM, "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = List.of(r.out().split("\n"));
        assertThat(lines.get(0)).isEqualTo("KTAP version 1");
        assertThat(lines.get(1)).isEqualTo("1..2");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                .containsExactly("ok 1 tcp4", "ok 2 tcp4");
        assertThat(lines).filteredOn(l -> l.startsWith("KTAP version")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.contains("ktap-metric-json") && l.contains("\"tcp4_mbps\"")).hasSize(2);
        assertThat(lines.get(lines.size() - 1)).isEqualTo("# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0");
    }

    @Test
    void streamTextPutsEachRunUnderItsHeader() {
        Run r = linerate(STREAM);
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = List.of(r.out().split("\n"));
        int first = lines.indexOf("# run 1/2");
        int second = lines.indexOf("# run 2/2");
        assertThat(first).isZero();
        assertThat(second).isGreaterThan(first);
        // each run has its own summary, after its header
        assertThat(lines.subList(first, second)).filteredOn(l -> l.startsWith("tcp4 ")).hasSize(1);
        assertThat(lines.subList(second, lines.size())).filteredOn(l -> l.startsWith("tcp4 ")).hasSize(1);
    }

    @Test
    void oneRunWritesNoRunIndex() throws Exception {
        Run r = linerate(new String[] {"stream", "--duration", "200ms", "--warmup", "0s", "--json"});
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.jsonLines()).singleElement().satisfies(n -> assertThat(n.has("run")).isFalse());
    }

    @Test
    void pingpongJsonWritesOneLinePerRun() throws Exception {
        Run r = linerate(PINGPONG, "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> runs = r.jsonLines();
        assertThat(runs).extracting(n -> n.get("run").asInt()).containsExactly(1, 2);
        assertThat(runs).allSatisfy(n -> {
            assertThat(n.get("test").asText()).isEqualTo("pingpong_tcp");
            assertThat(n.get("detail").get("results").get(0).get("iterations").asLong()).isPositive();
        });
    }

    @Test
    void pingpongKtapHasOneTestPerRun() {
        Run r = linerate(PINGPONG, "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        List<String> lines = List.of(r.out().split("\n"));
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..2");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                .containsExactly("ok 1 pingpong_tcp", "ok 2 pingpong_tcp");
    }

    @Test
    void rrJsonWritesOneLinePerRun() throws Exception {
        Run r = linerate(RR, "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        List<JsonNode> runs = r.jsonLines();
        assertThat(runs).extracting(n -> n.get("run").asInt()).containsExactly(1, 2);
        assertThat(runs).allSatisfy(n -> assertThat(n.get("detail").get("transactions").asLong()).isPositive());
    }

    @Test
    void rrKtapHasOneTestPerRun() {
        Run r = linerate(RR, "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(List.of(r.out().split("\n"))).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                .containsExactly("ok 1 tcp_rr", "ok 2 tcp_rr");
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream", "pingpong", "rr", "raw"})
    void aRepeatOutOfRangeIsBadUsageNamingTheRange(String command) {
        for (String n : List.of("0", "1001")) {
            Run r = linerate(new String[] {command, "--repeat", n});
            assertThat(r.exit()).as(r.err()).isEqualTo(Linerate.USAGE);
            assertThat(r.err()).contains("--repeat " + n + " is out of range; allowed: 1..1000")
                    .doesNotContain("Exception");
            assertThat(r.out()).isEmpty();
        }
    }
}
