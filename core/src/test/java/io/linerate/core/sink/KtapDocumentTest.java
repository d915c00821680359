package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class KtapDocumentTest {
    private final StringWriter text = new StringWriter();
    private final PrintWriter out = new PrintWriter(text);

    @Test
    void aSuiteWithOnePassAndOneSkip() {
        KtapDocument doc = KtapDocument.start(out, 2);
        doc.diagnostic("linerate loopback");
        assertThat(doc.ok("tcp4")).isEqualTo(1);
        assertThat(doc.skip("udp4_frag", "loopback MTU 65536 does not fragment")).isEqualTo(2);
        doc.end();
        // written by hand from KTAP version 1 and kselftest's totals line
        assertThat(text.toString()).isEqualTo("""
                KTAP version 1
                1..2
                # linerate loopback
                ok 1 tcp4
                ok 2 udp4_frag # SKIP loopback MTU 65536 does not fragment
                # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0
                """);
    }

    @Test
    void everyKindOfResultIsCountedOnceAndLineBreaksBecomeSpaces() {
        KtapDocument doc = KtapDocument.start(out, 6);
        doc.ok("a");
        doc.fail("b", "invalid: no byte arrived\nin the window");
        doc.fail("c", null);
        doc.skip("d", "");
        doc.xfail("e", "advisory: regressed");
        doc.error("f", "timed out");
        assertThat(doc.totals()).isEqualTo(new KtapDocument.Totals(1, 2, 1, 0, 1, 1));
        doc.end();
        doc.end();
        assertThat(text.toString()).isEqualTo("""
                KTAP version 1
                1..6
                ok 1 a
                not ok 2 b # invalid: no byte arrived in the window
                not ok 3 c
                ok 4 d # SKIP
                ok 5 e # XFAIL advisory: regressed
                not ok 6 f # error: timed out
                # Totals: pass:1 fail:2 xfail:1 xpass:0 skip:1 error:1
                """);
    }

    @Test
    void metricLinesGoInsideTheDocumentWithOnePolicyLinePerName() {
        KtapDocument doc = KtapDocument.start(out, 1);
        doc.metrics().accept(Metric.of("tcp4_mbps", 100.5, "Mbit/s", 1.25, Better.HIGHER));
        doc.metrics().accept(Metric.of("tcp4_mbps", 101, "Mbit/s", 2.5, Better.HIGHER));
        doc.ok("tcp4");
        doc.end();
        assertThat(text.toString().lines().toList()).containsExactly(
                "KTAP version 1",
                "1..1",
                "# ktap-metric-policy-json: {\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\","
                        + "\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":1.25,"
                        + "\"unit\":\"Mbit/s\",\"value\":100.5}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":2.5,"
                        + "\"unit\":\"Mbit/s\",\"value\":101.0}",
                "ok 1 tcp4",
                "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0");
    }

    @Test
    void aResultBeyondThePlanOrAfterTheEndIsRefused() {
        assertThatThrownBy(() -> KtapDocument.start(out, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plan of -1 tests is out of range; allowed: 0 or more");
        KtapDocument doc = KtapDocument.start(out, 1);
        doc.ok("a");
        assertThatThrownBy(() -> doc.ok("b")).isInstanceOf(IllegalStateException.class)
                .hasMessage("result 2 (b) is beyond the plan of 1 tests");
        KtapDocument ended = KtapDocument.start(out, 2);
        ended.end();
        assertThatThrownBy(() -> ended.ok("a")).isInstanceOf(IllegalStateException.class);
    }
}
