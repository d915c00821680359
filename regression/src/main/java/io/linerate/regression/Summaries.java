package io.linerate.regression;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How one side's runs become data points under a policy: omitting, then summarizing each run. */
final class Summaries {
    private Summaries() {}

    /** @return the data points of a baseline's {@code runs} under {@code p} */
    static double[] data(Policy p, List<Baseline.Run> runs) {
        Map<String, List<double[]>> byRun = new LinkedHashMap<>();
        for (Baseline.Run r : runs) {
            List<double[]> l = new ArrayList<>();
            for (int i = 0; i < r.samples().length; i++) {
                l.add(new double[] {r.times()[i], r.samples()[i]});
            }
            byRun.put(r.run(), l);
        }
        return data(p, byRun);
    }

    /** @return the data points of {@code runs} ({@code [time, value]} in reading order) under {@code p} */
    static double[] data(Policy p, Map<String, List<double[]>> runs) {
        List<Double> out = new ArrayList<>();
        for (List<double[]> run : runs.values()) {
            List<double[]> kept = run;
            if (p.omitFirstSeconds() > 0 || p.omitLastSeconds() > 0) {
                double t0 = run.stream().mapToDouble(x -> x[0]).min().orElse(0);
                double t1 = run.stream().mapToDouble(x -> x[0]).max().orElse(0);
                kept = run.stream().filter(x -> x[0] >= t0 + p.omitFirstSeconds() && x[0] <= t1 - p.omitLastSeconds()).toList();
            }
            if (kept.isEmpty()) {
                continue;
            }
            double[] v = kept.stream().mapToDouble(x -> x[1]).toArray();
            switch (p.summarize()) {
                case DISTRIBUTION -> {
                    for (double x : v) {
                        out.add(x);
                    }
                }
                case MAX -> out.add(Compare.parse("max").of(v));
                case MIN -> out.add(Compare.parse("min").of(v));
                case MEAN -> out.add(Compare.parse("mean").of(v));
                case LAST -> out.add(v[v.length - 1]);
                case SUM -> {
                    double s = 0;
                    for (double x : v) {
                        s += x;
                    }
                    out.add(s);
                }
                default -> throw new IllegalStateException("unknown summary " + p.summarize());
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
