package io.linerate.regression;

import io.linerate.core.Metric;
import io.linerate.core.Rates;
import io.linerate.core.StreamMetrics;
import io.linerate.core.latency.LatencyStats;
import io.linerate.regression.internal.Fmt;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The absolute checks of {@link MetricAssertions}: one figure of a result against a fixed bound,
 * without a baseline. A figure is chosen by its name in the keys of docs/metrics.md ("One key per
 * quantity") and by its unit; every series of that figure is checked (each direction, each
 * message size), except that goodput skips the figures of single parallel streams and checks
 * their sum ({@code stream=sum}).
 */
final class AbsoluteBounds {
    /**
     * One figure to check.
     *
     * @param description what it is, for messages, such as {@code goodput tcp4_mbps}
     * @param unit the unit it must have, in which the bound is given
     * @param selects which metrics are this figure
     */
    private record Figure(String description, String unit, Predicate<Metric> selects) {}

    private final List<Metric> metrics;
    private final String test;
    private final Consumer<Metric> published;

    /**
     * @param metrics the result's metrics
     * @param test the test they belong to; empty for bare metrics
     * @param published told of every metric checked, before it is checked
     */
    AbsoluteBounds(List<Metric> metrics, String test, Consumer<Metric> published) {
        this.metrics = metrics;
        this.test = test;
        this.published = published;
    }

    /** As {@link MetricAssertions#throughputAtLeast(double)}. */
    void throughputAtLeast(double bitsPerSecond) {
        if (!(bitsPerSecond >= 0) || Double.isInfinite(bitsPerSecond)) {
            throw new IllegalArgumentException("throughput bound " + bitsPerSecond + " bit/s is not allowed;"
                    + " allowed: a finite number of bits/s, at least 0");
        }
        check(goodput(), Rates.toMbits(bitsPerSecond), true);
    }

    /** As {@link MetricAssertions#lossAtMost(double)}. */
    void lossAtMost(double percent) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("loss bound " + percent + "% is not allowed; allowed: 0 to 100 percent");
        }
        check(loss(), percent, false);
    }

    /** As {@link MetricAssertions#jitterAtMost(Duration)}. */
    void jitterAtMost(Duration bound) {
        check(jitter(), nanos("jitter", bound) / 1e6, false);
    }

    /** As {@link MetricAssertions#latencyPercentileAtMost(double, Duration)}. */
    void latencyPercentileAtMost(double percentile, Duration bound) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile " + percentile + " is not allowed;"
                    + " allowed: greater than 0 and at most 100");
        }
        check(latencyPercentile(percentile), nanos("latency", bound), false);
    }

    private static double nanos(String what, Duration bound) {
        Objects.requireNonNull(bound, what + " bound");
        if (bound.isNegative()) {
            throw new IllegalArgumentException(what + " bound " + bound + " is not allowed; allowed: a duration of at least 0");
        }
        return bound.getSeconds() * 1e9 + bound.getNano();
    }

    /** @return the receiver's goodput {@code <test>_mbps} in Mbit/s; without a test, any {@code *_mbps} but a sender's */
    private Figure goodput() {
        return new Figure("goodput " + name(StreamMetrics.goodput(marker())), StreamMetrics.MBPS,
                m -> named(m, StreamMetrics.goodput(test)) && !(test.isEmpty() && m.name().endsWith("_sent_mbps"))
                        && !isSingleParallelStream(m));
    }

    /** @return the receiver's UDP loss {@code <test>_lost_pct} in % */
    private Figure loss() {
        return new Figure("loss " + name(StreamMetrics.lost(marker())), "%", m -> named(m, StreamMetrics.lost(test)));
    }

    /** @return the receiver's UDP jitter {@code <test>_jitter_ms} (RFC 3550) in ms */
    private Figure jitter() {
        return new Figure("jitter " + name(StreamMetrics.jitter(marker())), "ms", m -> named(m, StreamMetrics.jitter(test)));
    }

    /** @return the latency percentile {@code latency_p<percentile>} in ns, as ping-pong and rr name it */
    private static Figure latencyPercentile(double percentile) {
        String name = "latency_p" + LatencyStats.formatPercentile(percentile);
        return new Figure("latency percentile " + name, "ns", m -> m.name().equals(name));
    }

    /**
     * @throws AssertionError naming each series beyond {@code bound} ({@code atLeast}: below it;
     *     else above it), or, when the metrics hold no such figure, naming the series they hold
     */
    private void check(Figure figure, double bound, boolean atLeast) {
        String expected = "expected " + (atLeast ? "at least " : "at most ");
        List<Metric> selected = metrics.stream()
                .filter(m -> m.unit().equals(figure.unit()) && figure.selects().test(m)).toList();
        if (selected.isEmpty()) {
            List<String> has = metrics.stream().map(this::display).toList();
            throw new AssertionError("no " + figure.description() + " in " + figure.unit() + " to check, "
                    + expected + Fmt.num(bound) + " " + figure.unit() + "; the result has " + has.size()
                    + " series: " + String.join(", ", has));
        }
        List<String> failures = new ArrayList<>();
        for (Metric m : selected) {
            published.accept(m);
            if (atLeast ? m.value() < bound : m.value() > bound) {
                String[] shown = distinct(m.value(), bound);
                failures.add(display(m) + " = " + shown[0] + " " + m.unit() + ", " + expected + shown[1] + " " + m.unit());
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n", failures));
        }
    }

    private boolean named(Metric m, String name) {
        return test.isEmpty() ? m.name().endsWith(name) : m.name().equals(name);
    }

    private static boolean isSingleParallelStream(Metric m) {
        String stream = m.labels().get(StreamMetrics.STREAM);
        return stream != null && !stream.equals(StreamMetrics.SUM);
    }

    private String marker() {
        return test.isEmpty() ? "<marker>" : test;
    }

    private String name(String name) {
        return test.isEmpty() ? name : test + "/" + name;
    }

    private String display(Metric m) {
        return new SeriesKey(test, m.name(), m.host(), new TreeMap<>(m.labels())).display();
    }

    /** @return both numbers as reports show them, or in full where that would show them equal */
    private static String[] distinct(double value, double bound) {
        String v = Fmt.num(value);
        String b = Fmt.num(bound);
        if (v.equals(b)) {
            v = new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
            b = new BigDecimal(Double.toString(bound)).stripTrailingZeros().toPlainString();
        }
        return new String[] {v, b};
    }
}
