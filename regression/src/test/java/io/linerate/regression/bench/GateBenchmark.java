package io.linerate.regression.bench;

import io.linerate.regression.Baseline;
import io.linerate.regression.Environment;
import io.linerate.regression.Gate;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricReaders;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Reports;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * Benchmark, not a test: gates a log of 100,000 ktap metric lines in 1,000 series (100 samples
 * each, p50 of the distribution, threshold method) against a baseline of the same shape, end to
 * end: parse the log, parse the baseline JSON, gate, write the KTAP report. Prints the time of each
 * of 3 warm-up rounds (the first one on a cold JVM, as a command-line run sees it) and 5 measured
 * rounds, and the median of the measured ones.
 *
 * <p>Run from the repository root:
 * <pre>
 * mvn -q -pl regression -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp -Dmdep.includeScope=test
 * java -cp regression/target/test-classes:regression/target/classes:core/target/classes:$(cat regression/target/bench.cp) \
 *     io.linerate.regression.bench.GateBenchmark
 * </pre>
 */
public final class GateBenchmark {
    static final int SERIES = 1_000;
    static final int SAMPLES = 100;

    private GateBenchmark() {}

    static String log(long seed, double scale) {
        Random rnd = new Random(seed);
        StringBuilder sb = new StringBuilder(SERIES * SAMPLES * 130);
        sb.append("KTAP version 1\n");
        for (int run = 0; run < SAMPLES; run++) {
            for (int s = 0; s < SERIES; s++) {
                boolean latency = s % 4 == 3;
                String name = String.format(Locale.ROOT, latency ? "flow%04d_rtt_ns" : "flow%04d_mbps", s);
                double value = (latency ? 20_000 : 900 + s) * scale * (1 + 0.02 * rnd.nextGaussian());
                sb.append("# ktap-metric-json: {\"host\":\"local\",\"name\":\"").append(name)
                        .append("\",\"shape\":\"scalar\",\"time\":").append(run + 1).append(",\"unit\":\"")
                        .append(latency ? "ns" : "Mbit/s").append("\",\"value\":")
                        .append(String.format(Locale.ROOT, "%.3f", value)).append("}\n");
            }
        }
        return sb.toString();
    }

    public static void main(String[] args) {
        Environment env = new Environment("bench", "bench", "bench", "nio", "bench");
        String baseJson = Baseline.of(MetricReaders.read("base.log", log(1, 1.0)), env, Instant.EPOCH).toJson();
        String current = log(2, 0.99);
        long lines = current.chars().filter(c -> c == '\n').count() - 1;
        double[] times = new double[5];
        GateReport last = null;
        for (int i = -3; i < times.length; i++) {
            long t0 = System.nanoTime();
            MetricSet set = MetricReaders.read("run.log", current);
            Baseline base = Baseline.parse("baseline.json", baseJson);
            GateReport report = Gate.create().baseline(base).environment(env).run(set);
            String ktap = Reports.ktap(report);
            long t1 = System.nanoTime();
            if (i >= 0) {
                times[i] = (t1 - t0) / 1e9;
                System.out.printf(Locale.ROOT, "round %d: %.3f s%n", i + 1, times[i]);
            } else {
                System.out.printf(Locale.ROOT, "warm-up %d: %.3f s%s%n", i + 4, (t1 - t0) / 1e9, i == -3 ? " (cold JVM)" : "");
            }
            last = report;
            if (ktap.isEmpty()) {
                throw new IllegalStateException("empty report");
            }
        }
        Arrays.sort(times);
        System.out.printf(Locale.ROOT, "gated %d metric lines in %d series: median %.3f s (min %.3f s); %s%n",
                lines, last.verdicts().size(), times[times.length / 2], times[0], Reports.totals(last).line());
    }
}
