package io.linerate.regression.internal;

import io.linerate.regression.Verdict;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The deterministic SVG chart of docs/metrics.md section 7, written with the JDK's
 * {@link XMLStreamWriter} (which does the XML escaping). Layout: a title and a legend on top, then
 * one panel per unit (in first-seen order), each with a y axis from zero to the smallest of 1, 2,
 * 2.5 or 5 times a power of ten at or above 110 % of its largest value, labelled with the unit,
 * three gridlines, and one group per series: the baseline bar (solid grey {@code #8c8c8c}) beside
 * the current bar (navy {@code #08306b} with white diagonal hatching, outlined), so that the two
 * differ by pattern as well as colour. WCAG 2.1 contrast ratios: grey on white 3.4:1, navy on
 * white 12.8:1, navy against grey 3.8:1. Without any baseline value only current bars are drawn.
 * A missing value is the text {@code n/a} instead of a bar; a regressed group carries the text
 * {@code regressed} (or {@code advisory}) above it. Series labels longer than 28 characters are
 * shortened with an ellipsis; the full label is the text's {@code <title>}. Coordinates have one
 * decimal, formatted with {@link Locale#ROOT}.
 */
public final class SvgChart {
    private static final String NS = "http://www.w3.org/2000/svg";
    private static final String BASE_FILL = "#8c8c8c";
    private static final String CURRENT_FILL = "#08306b";
    private static final int LEFT = 120;
    private static final int GROUP = 90;
    private static final int BAR = 28;
    private static final int PANEL_TOP = 70;
    private static final int PLOT_H = 200;
    private static final int PANEL_H = PLOT_H + 130;
    private static final int MAX_LABEL = 28;

    private SvgChart() {}

    /**
     * @param verdicts the series to draw, in order
     * @param title text of {@code <title>} and the heading
     * @return the SVG document
     */
    public static String render(List<Verdict> verdicts, String title) {
        Map<String, List<Verdict>> panels = new LinkedHashMap<>();
        for (Verdict v : verdicts) {
            panels.computeIfAbsent(v.unit(), u -> new ArrayList<>()).add(v);
        }
        int maxGroups = panels.values().stream().mapToInt(List::size).max().orElse(0);
        int width = Math.max(420, LEFT + maxGroups * GROUP + 30);
        int height = PANEL_TOP + Math.max(1, panels.size()) * PANEL_H;
        int regressed = (int) verdicts.stream().filter(v -> v.kind() == Verdict.Kind.REGRESSION).count();
        boolean anyBaseline = verdicts.stream().anyMatch(v -> v.baseline() != null);
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            nl(w);
            w.writeStartElement("svg");
            w.writeDefaultNamespace(NS);
            w.writeAttribute("viewBox", "0 0 " + width + " " + height);
            w.writeAttribute("width", Integer.toString(width));
            w.writeAttribute("height", Integer.toString(height));
            w.writeAttribute("role", "img");
            w.writeAttribute("aria-labelledby", "chart-title chart-desc");
            w.writeAttribute("font-family", "sans-serif");
            w.writeAttribute("font-size", "11");
            nl(w);
            element(w, "title", title, "id", "chart-title");
            element(w, "desc", String.format(Locale.ROOT,
                    "Grouped bar chart of %d metric series%s, one panel per unit, y axis from zero; "
                            + "baseline bars solid grey, current bars hatched blue; %d regressed.",
                    verdicts.size(), anyBaseline ? ", baseline beside current" : ", current values only", regressed),
                    "id", "chart-desc");
            w.writeStartElement("defs");
            w.writeStartElement("pattern");
            w.writeAttribute("id", "current-hatch");
            w.writeAttribute("width", "6");
            w.writeAttribute("height", "6");
            w.writeAttribute("patternUnits", "userSpaceOnUse");
            w.writeAttribute("patternTransform", "rotate(45)");
            empty(w, "rect", "width", "6", "height", "6", "fill", CURRENT_FILL);
            empty(w, "line", "x1", "0", "y1", "0", "x2", "0", "y2", "6", "stroke", "#ffffff", "stroke-width", "2");
            w.writeEndElement();
            w.writeEndElement();
            nl(w);
            empty(w, "rect", "x", "0", "y", "0", "width", Integer.toString(width), "height", Integer.toString(height),
                    "fill", "#ffffff");
            text(w, title, 10, 20, "start", "font-size", "14", "font-weight", "bold");
            if (anyBaseline) {
                empty(w, "rect", "x", "10", "y", "32", "width", "14", "height", "14", "fill", BASE_FILL);
                text(w, "baseline", 30, 43, "start");
            }
            int lx = anyBaseline ? 100 : 10;
            empty(w, "rect", "x", Integer.toString(lx), "y", "32", "width", "14", "height", "14",
                    "fill", "url(#current-hatch)", "stroke", CURRENT_FILL);
            text(w, "current", lx + 20, 43, "start");
            int p = 0;
            for (Map.Entry<String, List<Verdict>> e : panels.entrySet()) {
                panel(w, e.getKey(), e.getValue(), PANEL_TOP + p * PANEL_H, width, anyBaseline);
                p++;
            }
            w.writeEndElement();
            nl(w);
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write SVG: " + e.getMessage(), e);
        }
        return out.toString();
    }

    private static void panel(XMLStreamWriter w, String unit, List<Verdict> vs, int top, int width,
                              boolean anyBaseline) throws XMLStreamException {
        double max = 0;
        for (Verdict v : vs) {
            if (v.baseline() != null) {
                max = Math.max(max, v.baseline());
            }
            if (v.current() != null) {
                max = Math.max(max, v.current());
            }
        }
        double scaleMax = niceCeil(max * 1.1);
        int bottom = top + PLOT_H;
        w.writeStartElement("g");
        w.writeAttribute("class", "panel");
        nl(w);
        for (int i = 0; i <= 2; i++) {
            double value = scaleMax * i / 2;
            double y = bottom - PLOT_H * i / 2.0;
            empty(w, "line", "x1", f(LEFT), "y1", f(y), "x2", f(width - 20), "y2", f(y), "stroke",
                    i == 0 ? "#000000" : "#d0d0d0", "stroke-width", "1");
            text(w, Fmt.num(value), LEFT - 6, y + 4, "end");
        }
        empty(w, "line", "x1", f(LEFT), "y1", f(top), "x2", f(LEFT), "y2", f(bottom), "stroke", "#000000",
                "stroke-width", "1");
        double ly = top + PLOT_H / 2.0;
        w.writeStartElement("text");
        w.writeAttribute("x", f(18));
        w.writeAttribute("y", f(ly));
        w.writeAttribute("text-anchor", "middle");
        w.writeAttribute("transform", "rotate(-90 18 " + f(ly) + ")");
        w.writeCharacters(unit.isEmpty() ? "(no unit)" : unit);
        w.writeEndElement();
        nl(w);
        int g = 0;
        for (Verdict v : vs) {
            double gx = LEFT + g * GROUP + (GROUP - 2 * BAR) / 2.0;
            if (anyBaseline) {
                bar(w, v.baseline(), gx, bottom, scaleMax, false);
                bar(w, v.current(), gx + BAR, bottom, scaleMax, true);
            } else {
                bar(w, v.current(), gx + BAR / 2.0, bottom, scaleMax, true);
            }
            if (v.kind() == Verdict.Kind.REGRESSION || v.kind() == Verdict.Kind.ADVISORY_REGRESSION) {
                double topValue = Math.max(v.baseline() == null ? 0 : v.baseline(), v.current() == null ? 0 : v.current());
                double y = bottom - PLOT_H * topValue / scaleMax - 6;
                text(w, v.kind() == Verdict.Kind.REGRESSION ? "regressed" : "advisory", gx + BAR, y, "middle",
                        "fill", "#b00020", "font-weight", "bold");
            }
            double lx = gx + BAR;
            double lyy = bottom + 14;
            w.writeStartElement("text");
            w.writeAttribute("x", f(lx));
            w.writeAttribute("y", f(lyy));
            w.writeAttribute("text-anchor", "end");
            w.writeAttribute("transform", "rotate(-35 " + f(lx) + " " + f(lyy) + ")");
            String label = v.key().display();
            if (label.length() > MAX_LABEL) {
                w.writeStartElement("title");
                w.writeCharacters(label);
                w.writeEndElement();
                label = label.substring(0, MAX_LABEL - 1) + "\u2026";
            }
            w.writeCharacters(label);
            w.writeEndElement();
            nl(w);
            g++;
        }
        w.writeEndElement();
        nl(w);
    }

    private static void bar(XMLStreamWriter w, Double value, double x, int bottom, double scaleMax, boolean current)
            throws XMLStreamException {
        if (value == null) {
            text(w, "n/a", x + BAR / 2.0, bottom - 4, "middle");
            return;
        }
        double h = Math.max(0, PLOT_H * value / scaleMax);
        String fill = current ? "url(#current-hatch)" : BASE_FILL;
        w.writeStartElement("rect");
        w.writeAttribute("x", f(x));
        w.writeAttribute("y", f(bottom - h));
        w.writeAttribute("width", f(BAR - 2));
        w.writeAttribute("height", f(h));
        w.writeAttribute("fill", fill);
        if (current) {
            w.writeAttribute("stroke", CURRENT_FILL);
        }
        w.writeStartElement("title");
        w.writeCharacters((current ? "current " : "baseline ") + Fmt.num(value));
        w.writeEndElement();
        w.writeEndElement();
        nl(w);
    }

    private static void text(XMLStreamWriter w, String s, double x, double y, String anchor, String... attrs)
            throws XMLStreamException {
        w.writeStartElement("text");
        w.writeAttribute("x", f(x));
        w.writeAttribute("y", f(y));
        w.writeAttribute("text-anchor", anchor);
        for (int i = 0; i < attrs.length; i += 2) {
            w.writeAttribute(attrs[i], attrs[i + 1]);
        }
        w.writeCharacters(s);
        w.writeEndElement();
        nl(w);
    }

    private static void element(XMLStreamWriter w, String name, String content, String... attrs) throws XMLStreamException {
        w.writeStartElement(name);
        for (int i = 0; i < attrs.length; i += 2) {
            w.writeAttribute(attrs[i], attrs[i + 1]);
        }
        w.writeCharacters(content);
        w.writeEndElement();
        nl(w);
    }

    private static void empty(XMLStreamWriter w, String name, String... attrs) throws XMLStreamException {
        w.writeEmptyElement(name);
        for (int i = 0; i < attrs.length; i += 2) {
            w.writeAttribute(attrs[i], attrs[i + 1]);
        }
        if (!"rect".equals(name) || attrs.length > 0) {
            nl(w);
        }
    }

    private static void nl(XMLStreamWriter w) throws XMLStreamException {
        w.writeCharacters("\n");
    }

    /** @return the smallest of 1, 2, 2.5, 5 times a power of ten that is at least {@code x}; 1 for {@code x <= 0} */
    public static double niceCeil(double x) {
        if (!(x > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(x)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= x * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
