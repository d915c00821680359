package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

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
}
