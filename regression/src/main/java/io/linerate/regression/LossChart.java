package io.linerate.regression;

import io.linerate.core.search.LossCurve;
import io.linerate.regression.internal.Fmt;
import io.linerate.regression.internal.SvgChart;
import java.io.StringWriter;
import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The SVG of loss against offered load over the trials of a rate search or a loss sweep
 * ({@link LossCurve}), with the found rate marked. Deterministic; written with the JDK's
 * {@link XMLStreamWriter}, which escapes. Every element comes from the curve:
 *
 * <ul>
 * <li>Plot area: {@value #LEFT} ≤ x ≤ {@value #LEFT} + {@value #PLOT_W}, {@value #TOP} ≤ y ≤
 * {@value #TOP} + {@value #PLOT_H}, in a {@value #WIDTH} × {@value #HEIGHT} canvas.</li>
 * <li>x axis: offered load in Mbit/s, from 0 to {@code xMax}, the smallest of 1, 2, 2.5 or 5 times a
 * power of ten at or above the largest of the max rate, the found rate and every trial's load;
 * five ticks at {@code xMax × i / 4}. A trial's load is its offered rate, or for the unlimited
 * calibration trial the rate it achieved.</li>
 * <li>y axis: loss in percent of what was sent, from 0 to {@code yMax}, the same rounding of the
 * largest loss (1 % when nothing was lost); five ticks at {@code yMax × i / 4}.</li>
 * <li>A trial at load {@code L} Mbit/s and loss {@code P} % is drawn at
 * {@code x = LEFT + PLOT_W × L / xMax}, {@code y = TOP + PLOT_H − PLOT_H × P / yMax}: a group
 * {@code <g class="trial pass|fail|calibration" transform="translate(x y)">} holding a navy circle
 * (passed, or lost nothing in a sweep), a red cross (failed) or a hollow grey diamond (the unlimited
 * trial), so the three differ by shape as well as colour, and a {@code <title>} with its figures.</li>
 * <li>A loss sweep joins its steps by a line in order of load. A search's found rate is a dashed
 * vertical line {@code class="found"} at its x, labelled with the kind and rate.</li>
 * </ul>
 * Coordinates have one decimal, formatted with {@link Locale#ROOT}.
 */
public final class LossChart {
    /** Canvas width. */
    public static final int WIDTH = 640;
    /** Canvas height. */
    public static final int HEIGHT = 420;
    /** x of the plot area's left edge (the load 0). */
    public static final int LEFT = 70;
    /** y of the plot area's top edge (the loss {@code yMax}). */
    public static final int TOP = 50;
    /** Width of the plot area. */
    public static final int PLOT_W = 520;
    /** Height of the plot area. */
    public static final int PLOT_H = 300;
    private static final String NS = "http://www.w3.org/2000/svg";
    private static final String PASS = "#08306b";
    private static final String FAIL = "#b00020";
    private static final String CALIBRATION = "#6b6b6b";
    private static final int TICKS = 4;

    private LossChart() {}

    /** @return the x axis' top, Mbit/s (see the class comment) */
    public static double xMaxMbps(LossCurve c) {
        double max = c.maxBitsPerSecond();
        if (c.found().isPresent()) {
            max = Math.max(max, c.found().getAsLong());
        }
        for (LossCurve.Point p : c.points()) {
            max = Math.max(max, p.loadBitsPerSecond());
        }
        return SvgChart.niceCeil(max / 1e6);
    }

    /** @return the y axis' top, percent (see the class comment) */
    public static double yMaxPercent(LossCurve c) {
        double max = c.points().stream().mapToDouble(LossCurve.Point::lossPercent).max().orElse(0);
        return max > 0 ? SvgChart.niceCeil(max) : 1;
    }

    /**
     * @param curve the trials to draw
     * @param title text of the {@code <title>} and the heading
     * @return the SVG document
     */
    public static String svg(LossCurve curve, String title) {
        Objects.requireNonNull(curve, "curve");
        Objects.requireNonNull(title, "title");
        double xMax = xMaxMbps(curve);
        double yMax = yMaxPercent(curve);
        long passed = curve.points().stream().filter(LossCurve.Point::passed).count();
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            nl(w);
            w.writeStartElement("svg");
            w.writeDefaultNamespace(NS);
            attrs(w, "viewBox", "0 0 " + WIDTH + " " + HEIGHT, "width", Integer.toString(WIDTH), "height",
                    Integer.toString(HEIGHT), "role", "img", "aria-labelledby", "chart-title chart-desc",
                    "font-family", "sans-serif", "font-size", "11");
            nl(w);
            element(w, "title", title, "id", "chart-title");
            element(w, "desc", String.format(Locale.ROOT, "Loss in percent against offered load in Mbit/s over %d trials "
                            + "of a %s for %s, %d of them %s%s.", curve.points().size(),
                    curve.sweep() ? "frame loss rate test (RFC 2544 section 26.3)" : "rate search (RFC 2544 section 26.1)",
                    curve.marker(), passed, curve.sweep() ? "loss-free" : "passing",
                    curve.found().isPresent() ? String.format(Locale.ROOT, "; %s found at %s Mbit/s", curve.label(),
                            mbps(curve.found().getAsLong())) : ""), "id", "chart-desc");
            empty(w, "rect", "x", "0", "y", "0", "width", Integer.toString(WIDTH), "height", Integer.toString(HEIGHT),
                    "fill", "#ffffff");
            text(w, title, 10, 20, "start", "font-size", "14", "font-weight", "bold");
            legend(w);
            axes(w, xMax, yMax);
            if (curve.sweep()) {
                String pts = curve.points().stream().filter(p -> !p.calibration())
                        .sorted(Comparator.comparingDouble(LossCurve.Point::loadBitsPerSecond))
                        .map(p -> f(x(p.loadBitsPerSecond(), xMax)) + "," + f(y(p.lossPercent(), yMax)))
                        .collect(Collectors.joining(" "));
                empty(w, "polyline", "class", "sweep", "points", pts, "fill", "none", "stroke", PASS, "stroke-width", "1");
            }
            if (curve.found().isPresent()) {
                double fx = x(curve.found().getAsLong(), xMax);
                empty(w, "line", "class", "found", "x1", f(fx), "y1", f(TOP), "x2", f(fx), "y2", f(TOP + PLOT_H),
                        "stroke", PASS, "stroke-width", "1.5", "stroke-dasharray", "5 3");
                text(w, curve.label() + " " + mbps(curve.found().getAsLong()) + " Mbit/s", fx, TOP - 4, "middle",
                        "font-weight", "bold");
            }
            for (LossCurve.Point p : curve.points()) {
                point(w, p, curve.sweep(), xMax, yMax);
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

    /** @return the x of a load in bit/s on an axis up to {@code xMaxMbps} */
    static double x(double bitsPerSecond, double xMaxMbps) {
        return LEFT + PLOT_W * (bitsPerSecond / 1e6) / xMaxMbps;
    }

    /** @return the y of a loss in percent on an axis up to {@code yMax} */
    static double y(double lossPercent, double yMax) {
        return TOP + PLOT_H - PLOT_H * lossPercent / yMax;
    }

    private static void legend(XMLStreamWriter w) throws XMLStreamException {
        int ly = HEIGHT - 14; // below the axis label, clear of the found rate's label above the plot area
        w.writeStartElement("g");
        attrs(w, "class", "legend");
        nl(w);
        marker(w, "pass", 200, ly);
        text(w, "passed / no loss", 208, ly + 4, "start");
        marker(w, "fail", 320, ly);
        text(w, "failed / loss", 328, ly + 4, "start");
        marker(w, "calibration", 420, ly);
        text(w, "unlimited rate (at its achieved load)", 428, ly + 4, "start");
        w.writeEndElement();
        nl(w);
    }

    private static void axes(XMLStreamWriter w, double xMax, double yMax) throws XMLStreamException {
        int bottom = TOP + PLOT_H;
        w.writeStartElement("g");
        attrs(w, "class", "axes");
        nl(w);
        for (int i = 0; i <= TICKS; i++) {
            double yv = yMax * i / TICKS;
            double yy = y(yv, yMax);
            empty(w, "line", "x1", f(LEFT), "y1", f(yy), "x2", f(LEFT + PLOT_W), "y2", f(yy), "stroke",
                    i == 0 ? "#000000" : "#d0d0d0", "stroke-width", "1");
            text(w, Fmt.num(yv), LEFT - 6, yy + 4, "end");
            double xv = xMax * i / TICKS;
            double xx = x(xv * 1e6, xMax);
            empty(w, "line", "x1", f(xx), "y1", f(bottom), "x2", f(xx), "y2", f(bottom + 5), "stroke", "#000000",
                    "stroke-width", "1");
            text(w, Fmt.num(xv), xx, bottom + 18, "middle");
        }
        empty(w, "line", "x1", f(LEFT), "y1", f(TOP), "x2", f(LEFT), "y2", f(bottom), "stroke", "#000000",
                "stroke-width", "1");
        text(w, "offered load (Mbit/s)", LEFT + PLOT_W / 2.0, bottom + 40, "middle");
        double ly = TOP + PLOT_H / 2.0;
        text(w, "loss (% of sent)", 18, ly, "middle", "transform", "rotate(-90 18 " + f(ly) + ")");
        w.writeEndElement();
        nl(w);
    }

    private static void point(XMLStreamWriter w, LossCurve.Point p, boolean sweep, double xMax, double yMax)
            throws XMLStreamException {
        String cls = p.calibration() ? "calibration" : p.passed() ? "pass" : "fail";
        w.writeStartElement("g");
        attrs(w, "class", "trial " + cls, "transform", "translate(" + f(x(p.loadBitsPerSecond(), xMax)) + " "
                + f(y(p.lossPercent(), yMax)) + ")");
        w.writeStartElement("title");
        w.writeCharacters(String.format(Locale.ROOT, "trial %d (%s): %s, achieved %s Mbit/s, loss %s%%, %s", p.number(),
                p.phase(), p.calibration() ? "unlimited" : "offered " + mbps(p.offeredBitsPerSecond()) + " Mbit/s",
                mbps(p.achievedBitsPerSecond()), Fmt.num(p.lossPercent()),
                p.calibration() ? "sets the max rate" : sweep ? (p.passed() ? "no loss" : "loss") : (p.passed() ? "pass" : "fail")));
        w.writeEndElement();
        shape(w, cls);
        w.writeEndElement();
        nl(w);
    }

    /** A legend's marker: the trial's shape at (x, y). */
    private static void marker(XMLStreamWriter w, String cls, double x, double y) throws XMLStreamException {
        w.writeStartElement("g");
        attrs(w, "transform", "translate(" + f(x) + " " + f(y) + ")");
        shape(w, cls);
        w.writeEndElement();
        nl(w);
    }

    private static void shape(XMLStreamWriter w, String cls) throws XMLStreamException {
        switch (cls) {
            case "pass" -> empty(w, "circle", "r", "4", "fill", PASS);
            case "fail" -> empty(w, "path", "d", "M-4,-4L4,4M-4,4L4,-4", "stroke", FAIL, "stroke-width", "2");
            default -> empty(w, "path", "d", "M0,-5L5,0L0,5L-5,0Z", "fill", "none", "stroke", CALIBRATION,
                    "stroke-width", "1.5");
        }
    }

    private static String mbps(double bitsPerSecond) {
        return String.format(Locale.ROOT, "%.3f", bitsPerSecond / 1e6);
    }

    private static void text(XMLStreamWriter w, String s, double x, double y, String anchor, String... more)
            throws XMLStreamException {
        w.writeStartElement("text");
        attrs(w, "x", f(x), "y", f(y), "text-anchor", anchor);
        attrs(w, more);
        w.writeCharacters(s);
        w.writeEndElement();
        nl(w);
    }

    private static void element(XMLStreamWriter w, String name, String content, String... more) throws XMLStreamException {
        w.writeStartElement(name);
        attrs(w, more);
        w.writeCharacters(content);
        w.writeEndElement();
        nl(w);
    }

    private static void empty(XMLStreamWriter w, String name, String... more) throws XMLStreamException {
        w.writeEmptyElement(name);
        attrs(w, more);
    }

    private static void attrs(XMLStreamWriter w, String... kv) throws XMLStreamException {
        for (int i = 0; i < kv.length; i += 2) {
            w.writeAttribute(kv[i], kv[i + 1]);
        }
    }

    private static void nl(XMLStreamWriter w) throws XMLStreamException {
        w.writeCharacters("\n");
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
