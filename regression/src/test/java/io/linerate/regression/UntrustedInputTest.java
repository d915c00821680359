package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Inputs no reader may trust: a byte-order mark, a key given twice with different values, and a
 * value that its unit forbids. Each reader either reads such an input as its author meant it or
 * says what is wrong, naming the file and the line (or the element's JSON path).
 */
class UntrustedInputTest {
    static final String BOM = "\uFEFF";
    static final String POLICY = "# ktap-metric-policy-json: {\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\","
            + "\"compare\":\"p50\",\"relative_tolerance\":0.2},\"summarize\":\"distribution\"}\n";
    static final String METRIC = "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\","
            + "\"time\":1,\"unit\":\"Mbit/s\",\"value\":900}\n";

    @Test
    void aByteOrderMarkBeforeTheFirstKtapLineKeepsThatLinesPolicy() {
        MetricSet s = MetricReaders.read("bom.log", BOM + POLICY + METRIC);
        assertThat(s.errors()).isEmpty();
        assertThat(s.embeddedPolicies()).extracting(Policy::name, Policy::relativeTolerance)
                .containsExactly(tuple("tcp4_mbps", 0.2));
        assertThat(s.observations()).extracting(Observation::value, Observation::line).containsExactly(tuple(900.0, 2));
    }

    @Test
    void aByteOrderMarkBeforeAJsonDocumentIsReadByTheReaderOfThatDocument() {
        // each file read as is and behind a mark gives the same samples
        for (String file : new String[] {"iperf3/udp-forward.json", "twister.json", "result.json"}) {
            String text = TestFiles.resource("inputs/" + file);
            MetricSet plain = MetricReaders.read(file, text);
            MetricSet marked = MetricReaders.read(file, BOM + text);
            assertThat(marked.errors()).as(file).isEqualTo(plain.errors());
            assertThat(marked.observations()).as(file).isNotEmpty().isEqualTo(plain.observations());
        }
    }

    @Test
    void aByteOrderMarkBeforeABaselineOrAPolicyFileIsDropped() {
        String baseline = Gate.create().baselineOf(MetricReaders.read("run.log", METRIC), GateTest.ENV, GateTest.CREATED)
                .toJson();
        assertThat(Baseline.parse("b.json", BOM + baseline).series()).extracting(x -> x.key().name(), x -> x.runs().get(0).samples()[0])
                .containsExactly(tuple("tcp4_mbps", 900.0));
        String policy = POLICY.substring(POLICY.indexOf('{')).strip();
        assertThat(Policies.parseFile("p.json", BOM + "[" + policy + "]").filePolicies())
                .extracting(Policy::name, Policy::relativeTolerance).containsExactly(tuple("tcp4_mbps", 0.2));
    }

    @Test
    void iperf3BidirWithTwoSumsInOneObjectIsAnErrorNamingTheFileAndLine() {
        // older iperf3 wrote both directions of --bidir as "sum" (esnet/iperf#952): renaming the first interval's
        // "sum_bidir_reverse" gives that document; the second "sum" holds the other direction's figures
        String text = TestFiles.resource("inputs/iperf3/udp-bidir.json");
        int at = text.indexOf("\"sum_bidir_reverse\"");
        String twoSums = text.substring(0, at) + "\"sum\"" + text.substring(at + "\"sum_bidir_reverse\"".length());
        int line = lineAt(twoSums, at);
        MetricSet s = MetricReaders.read("two-sums.json", twoSums);
        assertThat(s.observations()).isEmpty();
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("two-sums.json:" + line);
            assertThat(p.message()).isEqualTo("iperf3 output cannot be read: key \"sum\" is given twice in one object,"
                    + " at /intervals/0/sum, with different values (two objects); allowed: each key once, or repeated"
                    + " with an equal value");
        });
    }

    @Test
    void iperf3RepeatsWithTheSameValueOrOfKeysNotReadAreKept() {
        // iperf3 3.12 -P 2: end holds sock_bufsize, sndbuf_actual and rcvbuf_actual once per stream
        String tcp = TestFiles.resource("inputs/iperf3/tcp-p2.json");
        assertThat(tcp.split("\"sndbuf_actual\"", -1)).hasSize(3);
        MetricSet s = MetricReaders.read("tcp-p2.json", tcp);
        assertThat(s.errors()).isEmpty();
        // end.sum_sent (the client's own, local): 26492529642.68867 bit/s at 1.000584; end.sum_received (the
        // server's, reported back, remote): 26491391177.731564 bit/s at 1.000627
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::value, Observation::timeSeconds)
                .containsExactly(
                        tuple("tcp4/tcp4_sent_mbps{direction=forward,stream=sum,streams=2}@local", 26492529642.68867 / 1e6, 1.000584),
                        tuple("tcp4/tcp4_mbps{direction=forward,stream=sum,streams=2}@remote", 26491391177.731564 / 1e6, 1.000627));
        // a repeat of a key the reader does not read may even differ
        int second = tcp.indexOf("\"sndbuf_actual\"", tcp.indexOf("\"sndbuf_actual\"") + 1);
        String differing = tcp.substring(0, second) + tcp.substring(second).replaceFirst("16384", "16385");
        assertThat(MetricReaders.read("tcp-p2.json", differing).observations()).isEqualTo(s.observations());

        // -u -P 2 --bidir, the client's file. Forward (the client sent): end.sum_sent 40367108.09978442 bit/s
        // (local); end.sum_received 40361861.45653996 bit/s, lost 0 %, jitter 0.011493709079025494 ms (remote).
        // Reverse (the server sent): end.sum_sent_bidir_reverse 40367108.09978442 bit/s (remote); the one interval's
        // sum_bidir_reverse 40367105.858501226 bit/s, lost 0 %, jitter 0.0113871113290707 ms (local)
        MetricSet u = TestFiles.read("iperf3/udp-p2-bidir.json");
        assertThat(u.errors()).isEmpty();
        assertThat(u.observations()).extracting(o -> o.key().display(), Observation::value).containsExactly(
                tuple("udp4/udp4_sent_mbps{direction=forward,stream=sum,streams=2}@local", 40367108.09978442 / 1e6),
                tuple("udp4/udp4_mbps{direction=forward,stream=sum,streams=2}@remote", 40361861.45653996 / 1e6),
                tuple("udp4/udp4_lost_pct{direction=forward,stream=sum,streams=2}@remote", 0.0),
                tuple("udp4/udp4_jitter_ms{direction=forward,stream=sum,streams=2}@remote", 0.011493709079025494),
                tuple("udp4/udp4_sent_mbps{direction=reverse,stream=sum,streams=2}@remote", 40367108.09978442 / 1e6),
                tuple("udp4/udp4_mbps{direction=reverse,stream=sum,streams=2}@local", 40367105.858501226 / 1e6),
                tuple("udp4/udp4_lost_pct{direction=reverse,stream=sum,streams=2}@local", 0.0),
                tuple("udp4/udp4_jitter_ms{direction=reverse,stream=sum,streams=2}@local", 0.0113871113290707));
    }

    @Test
    void aKtapLineThatGivesAKeyTwiceIsReadOnlyWhenBothValuesAreEqual() {
        String same = METRIC.replace("\"host\":\"local\"", "\"host\":\"local\",\"host\":\"local\"");
        assertThat(MetricReaders.read("same.log", POLICY + same).errors()).isEmpty();
        String differ = METRIC.replace("\"value\":900", "\"value\":900,\"value\":-3");
        MetricSet s = MetricReaders.read("differ.log", POLICY + differ);
        assertThat(s.observations()).isEmpty();
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("differ.log:2");
            assertThat(p.message()).contains("key \"value\" is given twice in one object, at /value, with different"
                    + " values (900 and -3)");
        });
    }

    @Test
    void aBaselineOrPolicyFileThatGivesAKeyTwiceWithTwoValuesIsRefusedNamingTheLine() {
        String baseline = Gate.create().baselineOf(MetricReaders.read("run.log", METRIC), GateTest.ENV, GateTest.CREATED)
                .toJson();
        int at = baseline.indexOf("\"unit\"");
        String twice = baseline.substring(0, at) + "\"unit\" : \"ms\", " + baseline.substring(at);
        assertThatThrownBy(() -> Baseline.parse("b.json", twice)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("baseline b.json, line " + lineAt(twice, at) + ": key \"unit\" is given twice"
                        + " in one object, at /series/0/unit");
        assertThatThrownBy(() -> Policies.parseFile("p.json", "[{\"name\":\"a_mbps\",\n\"name\":\"b_mbps\"}]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("policy file p.json, line 2: key \"name\" is given twice in one object, at /0/name");
    }

    @Test
    void aNegativeThroughputInAKtapLogIsAnErrorNamingTheFileAndLineAndIsNeverSaved() {
        String negative = METRIC.replace("\"value\":900", "\"value\":-3");
        MetricSet s = MetricReaders.read("neg.log", POLICY + METRIC + negative);
        assertThat(s.observations()).extracting(Observation::value).containsExactly(900.0);
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("neg.log:3");
            assertThat(p.name()).isEqualTo("tcp4_mbps");
            assertThat(p.message()).isEqualTo("metric tcp4_mbps: value -3 is not allowed for unit Mbit/s; allowed: a"
                    + " finite number >= 0 (a rate, size, count, duration or percentage is never negative)");
        });
        assertThat(Gate.create().baselineOf(s, GateTest.ENV, GateTest.CREATED).series())
                .flatExtracting(x -> x.runs()).flatExtracting(r -> java.util.Arrays.stream(r.samples()).boxed().toList())
                .containsExactly(900.0);
        // the same line as ZPERF-RESULT, whose _mbps suffix gives the unit
        MetricSet z = MetricReaders.read("zperf.log", "ZPERF-RESULT udp4_mbps=12.5\nZPERF-RESULT udp4_mbps=-3\n");
        assertThat(z.observations()).extracting(Observation::value).containsExactly(12.5);
        assertThat(z.errors()).extracting(Problem::where).containsExactly("zperf.log:2");
        // a unit that is not an amount allows a negative value: a signal level in dBm
        String dbm = METRIC.replace("\"value\":900", "\"value\":-3").replace("Mbit/s", "dBm");
        assertThat(MetricReaders.read("dbm.log", dbm).observations()).extracting(Observation::value).containsExactly(-3.0);
    }

    @Test
    void negativeValuesInJsonInputsAreErrorsNamingTheFileAndTheElementsPath() {
        String udp = TestFiles.resource("inputs/iperf3/udp-forward.json");
        int at = udp.indexOf("\"bits_per_second\"", udp.indexOf("\"sum_received\""));
        int comma = udp.indexOf(',', at);
        String negative = udp.substring(0, at) + "\"bits_per_second\": -3e6" + udp.substring(comma);
        MetricSet s = MetricReaders.read("neg.json", negative);
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("neg.json");
            assertThat(p.series().display()).isEqualTo("udp4/udp4_mbps{direction=forward}@remote");
            assertThat(p.message()).startsWith("iperf3 /end/sum_received/bits_per_second: udp4_mbps value -3 is not"
                    + " allowed for unit Mbit/s");
        });
        assertThat(s.observations()).extracting(o -> o.key().name()).containsExactly("udp4_sent_mbps", "udp4_lost_pct",
                "udp4_jitter_ms");

        MetricSet t = MetricReaders.read("twister.json", "{\"testsuites\":[{\"name\":\"a\",\"recording\":[]},"
                + "{\"name\":\"zperf\",\"recording\":[{\"metric\":\"upload\",\"unit\":\"%\",\"value\":\"-0.5\"}]}]}");
        assertThat(t.errors()).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo("suite zperf, metric"
                + " upload (/testsuites/1/recording/0/value): value -0.5 is not allowed for unit %; allowed: a finite"
                + " number >= 0 (a rate, size, count, duration or percentage is never negative)"));
    }

    @Test
    void aBaselineWithANegativeSampleOfAnAmountIsRefusedNamingTheSample() {
        String json = Gate.create().baselineOf(MetricReaders.read("run.log", METRIC + METRIC), GateTest.ENV,
                GateTest.CREATED).toJson();
        int samples = json.indexOf("\"samples\" : [ 900.0, 900.0 ]");
        assertThat(samples).isPositive();
        String negative = json.replace("\"samples\" : [ 900.0, 900.0 ]", "\"samples\" : [ 900.0, -3.0 ]");
        assertThatThrownBy(() -> Baseline.parse("b.json", negative)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline b.json, series #1 (tcp4_mbps@local), sample /series/0/runs/0/samples/1: value -3"
                        + " is not allowed for unit Mbit/s; allowed: a finite number >= 0 (a rate, size, count, duration"
                        + " or percentage is never negative)");
        assertThatThrownBy(() -> Baseline.parse("b.json", json.replace("\"times\" : [ 1.0, 1.0 ]", "\"times\" : [ 1.0, 1e999 ]")))
                .hasMessage("baseline b.json, series #1 (tcp4_mbps@local), time /series/0/runs/0/times/1: Infinity is not"
                        + " allowed; allowed: a number of seconds >= 0");
        // unitless: a negative sample is allowed
        assertThat(Baseline.parse("b.json", negative.replace("\"unit\" : \"Mbit/s\"", "\"unit\" : \"\""))
                .series().get(0).runs().get(0).samples()).containsExactly(900.0, -3.0);
    }

    @Test
    void unitsOfAmountsForbidNegativeValuesAndEveryUnitForbidsNaNAndInfinity() {
        for (String amount : new String[] {"Mbit/s", "bit/s", "Gbps", "pps", "B/s", "frames/s", "transactions/sec",
                "KiB", "B", "bytes", "frames", "packets", "ns", "us", "\u00b5s", "ms", "s", "%", "us/KiB", "cycles/packet"}) {
            assertThat(io.linerate.regression.internal.UnitRange.refusal(-1, amount)).as(amount).isNotNull();
            assertThat(io.linerate.regression.internal.UnitRange.refusal(0, amount)).as(amount).isNull();
        }
        for (String other : new String[] {"", "dBm", "degC", "ratio", "s/s/s"}) {
            assertThat(io.linerate.regression.internal.UnitRange.refusal(-1, other)).as(other).isNull();
            assertThat(io.linerate.regression.internal.UnitRange.refusal(Double.NaN, other)).as(other).isNotNull();
            assertThat(io.linerate.regression.internal.UnitRange.refusal(Double.NEGATIVE_INFINITY, other)).as(other)
                    .isNotNull();
        }
    }

    @Test
    void twisterAndLinerateJsonDocumentsThatRepeatAKeyWithTwoValuesAreErrorsNamingTheLine() {
        MetricSet t = MetricReaders.read("twister.json", "{\"testsuites\":[{\"name\":\"z\",\"recording\":[\n"
                + "{\"metric\":\"up_mbps\",\"value\":\"12\",\"value\":\"13\"}]}]}");
        assertThat(t.observations()).isEmpty();
        assertThat(t.errors()).singleElement().satisfies(p -> {
            assertThat(p.where()).isEqualTo("twister.json:2");
            assertThat(p.message()).isEqualTo("twister report cannot be read: key \"value\" is given twice in one object,"
                    + " at /testsuites/0/recording/0/value, with different values (\"12\" and \"13\"); allowed: each key"
                    + " once, or repeated with an equal value");
        });
        MetricSet j = MetricReaders.read("result.json", "{\"version\":1,\"marker\":\"tcp4\",\n\"bits_per_second\":9e9,\n"
                + "\"bits_per_second\":1e9}");
        assertThat(j.observations()).isEmpty();
        assertThat(j.errors()).extracting(Problem::where).containsExactly("result.json:3");
    }

    /** @return the 1-based line of {@code text} that holds character {@code index} */
    static int lineAt(String text, int index) {
        return (int) text.substring(0, index).chars().filter(c -> c == '\n').count() + 1;
    }
}
