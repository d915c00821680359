package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.search.LossCurve;
import io.linerate.core.search.LossSweepFormat;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The loss chart's geometry, checked against coordinates worked out by hand from the documented scale. */
class LossChartTest {
    private static final long M = 1_000_000L;

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> byClass(Document d, String tag, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList n = d.getElementsByTagNameNS("*", tag);
        for (int i = 0; i < n.getLength(); i++) {
            Element e = (Element) n.item(i);
            if ((" " + e.getAttribute("class") + " ").contains(" " + cls + " ")) {
                out.add(e);
            }
        }
        return out;
    }

    private static List<String> texts(Document d) {
        List<String> out = new ArrayList<>();
        NodeList n = d.getElementsByTagNameNS("*", "text");
        for (int i = 0; i < n.getLength(); i++) {
            out.add(n.item(i).getTextContent());
        }
        return out;
    }

    @Test
    void aSearchsTrialsSitAtTheirLoadAndLossAndTheFoundRateIsMarked() throws Exception {
        // max 1000 Mbit/s, found 300; the unlimited trial achieved 800 Mbit/s and lost 60 %
        LossCurve c = new LossCurve("udp4", "ndr", 1000 * M, OptionalLong.of(300 * M), List.of(
                new LossCurve.Point(1, "calibration", 0, 800e6, 60, false),
                new LossCurve.Point(2, "search", 500 * M, 500e6, 10, false),
                new LossCurve.Point(3, "search", 250 * M, 250e6, 0, true)));
        // xMax = the smallest 1/2/2.5/5 x 10^k at or above max(1000, 300, 800, 500, 250) Mbit/s = 1000;
        // yMax = the same rounding of the largest loss, 60 % -> 100 %
        assertThat(LossChart.xMaxMbps(c)).isEqualTo(1000.0);
        assertThat(LossChart.yMaxPercent(c)).isEqualTo(100.0);
        Document d = parse(LossChart.svg(c, "udp4 <ndr>"));

        // x = 70 + 520 * L / 1000, y = 50 + 300 - 300 * P / 100:
        // the unlimited trial at its achieved 800 Mbit/s: x = 70 + 416 = 486, y = 350 - 180 = 170
        assertThat(byClass(d, "g", "calibration")).singleElement()
                .satisfies(g -> assertThat(g.getAttribute("transform")).isEqualTo("translate(486.0 170.0)"));
        // 500 Mbit/s at 10 %: x = 70 + 260 = 330, y = 350 - 30 = 320
        assertThat(byClass(d, "g", "fail")).singleElement()
                .satisfies(g -> assertThat(g.getAttribute("transform")).isEqualTo("translate(330.0 320.0)"));
        // 250 Mbit/s at 0 %: x = 70 + 130 = 200, y = 350
        assertThat(byClass(d, "g", "pass")).singleElement()
                .satisfies(g -> assertThat(g.getAttribute("transform")).isEqualTo("translate(200.0 350.0)"));
        // found 300 Mbit/s: x = 70 + 156 = 226, from the top (50) to the bottom (350) of the plot area
        assertThat(byClass(d, "line", "found")).singleElement().satisfies(l -> {
            assertThat(l.getAttribute("x1")).isEqualTo("226.0");
            assertThat(l.getAttribute("x2")).isEqualTo("226.0");
            assertThat(l.getAttribute("y1")).isEqualTo("50.0");
            assertThat(l.getAttribute("y2")).isEqualTo("350.0");
        });
        // ticks at xMax * i / 4 and yMax * i / 4
        assertThat(texts(d)).contains("NDR 300.000 Mbit/s", "0", "250", "500", "750", "1000", "25", "50", "75", "100",
                "udp4 <ndr>");
        assertThat(byClass(d, "polyline", "sweep")).isEmpty();
        assertThat(d.getElementsByTagNameNS("*", "desc").item(0).getTextContent())
                .isEqualTo("Loss in percent against offered load in Mbit/s over 3 trials of a rate search (RFC 2544 "
                        + "section 26.1) for udp4, 1 of them passing; NDR found at 300.000 Mbit/s.");
    }

    @Test
    void aSweepIsJoinedInOrderOfLoadAndHasNoFoundRate() throws Exception {
        // max 200 Mbit/s: steps at 200, 180, 160 Mbit/s losing 4, 0 and 0 %
        LossCurve c = new LossCurve("udp6", LossSweepFormat.KIND, 200 * M, OptionalLong.empty(), List.of(
                new LossCurve.Point(1, "step", 200 * M, 200e6, 4, false),
                new LossCurve.Point(2, "step", 180 * M, 180e6, 0, true),
                new LossCurve.Point(3, "step", 160 * M, 160e6, 0, true)));
        // xMax: 200 -> 200 (2 x 10^2); yMax: 4 -> 5
        Document d = parse(LossChart.svg(c, "sweep"));

        // x = 70 + 520 * L / 200: 160 -> 486, 180 -> 538, 200 -> 590; y = 350 - 300 * P / 5: 0 -> 350, 4 -> 110
        assertThat(byClass(d, "polyline", "sweep")).singleElement()
                .satisfies(p -> assertThat(p.getAttribute("points")).isEqualTo("486.0,350.0 538.0,350.0 590.0,110.0"));
        assertThat(byClass(d, "line", "found")).isEmpty();
        assertThat(byClass(d, "g", "pass")).hasSize(2);
        assertThat(texts(d)).contains("1.25", "2.5", "3.75", "5", "50", "100", "150", "200");
    }

    @Test
    void noLossAtAllStillHasAUsableLossAxis() throws Exception {
        LossCurve c = new LossCurve("udp4", "ndr", 10 * M, OptionalLong.of(9 * M),
                List.of(new LossCurve.Point(1, "confirm", 9 * M, 9e6, 0, true)));
        // yMax is 1 % when nothing was lost, so the ticks are 0, 0.25, 0.5, 0.75, 1
        assertThat(LossChart.yMaxPercent(c)).isEqualTo(1.0);
        assertThat(texts(parse(LossChart.svg(c, "t")))).contains("0.25", "0.75", "1");
    }
}
