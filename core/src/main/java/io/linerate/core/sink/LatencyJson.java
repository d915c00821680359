package io.linerate.core.sink;

import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.LatencyStats;
import io.linerate.core.latency.RrReport;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Turns latency results into their JSON objects: a ping-pong sweep and a request/response run.
 * Each method returns a {@link JsonObject}, to which a caller may add fields before writing it with
 * {@link JsonObject#toJson()}. Values that do not exist (no samples, a window without length) are
 * absent, never 0.
 */
public final class LatencyJson {
    private LatencyJson() {}

    /**
     * A ping-pong sweep: {@code {"format":"linerate-latency","version":1,"facts":{...},"latency":"half-RTT",
     * "unit":"ns","percentile":99,"significant_digits":3,"notes":[...],"affinity":{"client"?,"server"?}?,
     * "results":[{"size","iterations","measured_ns","mean","min","median","max","percentile_value","stddev"}]}};
     * the value fields of a size without samples are absent, and so is {@code affinity} when neither
     * end was pinned; its sides are the pinned threads' CPU sets as read back, in the kernel's CPU
     * list format.
     *
     * @param r the report
     * @return the report's object
     */
    public static JsonObject latency(LatencyReport r) {
        JsonObject root = JsonObject.create();
        root.put("format", LatencyReport.JSON_FORMAT);
        root.put("version", LatencyReport.JSON_VERSION);
        root.put("facts", facts(r.facts()));
        root.put("latency", r.mode().label());
        root.put("unit", "ns");
        root.put("percentile", r.percentile());
        root.put("significant_digits", r.significantDigits());
        root.putStrings("notes", r.notes());
        r.affinity().ifPresent(a -> {
            JsonObject o = JsonObject.create();
            a.client().ifPresent(c -> o.put("client", c));
            a.server().ifPresent(c -> o.put("server", c));
            root.put("affinity", o);
        });
        List<JsonObject> results = new ArrayList<>();
        for (SizeLatency s : r.sizes()) {
            LatencyStats st = s.stats(r.percentile(), r.mode());
            JsonObject o = JsonObject.create();
            o.put("size", s.sizeBytes());
            o.put("iterations", st.iterations());
            o.put("measured_ns", s.measuredNanos());
            putValues(o, st);
            results.add(o);
        }
        root.putObjects("results", results);
        return root;
    }

    /**
     * A request/response run: {@code {"format":"linerate-rr","version":1,"facts":{...},"test","window_ns",
     * "transactions","transactions_per_second"?,"flows":[{"flow","transactions",
     * "transactions_per_second"?}],"latency":{"unit":"ns","percentile","significant_digits",
     * "iterations","mean"?,"min"?,"median"?,"max"?,"percentile_value"?,"stddev"?},"notes":[...]}};
     * rates (transactions/s) are absent when the window has no length, latency values (ns) when
     * there are no samples.
     *
     * @param r the report
     * @return the report's object
     */
    public static JsonObject rr(RrReport r) {
        JsonObject root = JsonObject.create();
        root.put("format", RrReport.JSON_FORMAT);
        root.put("version", LatencyReport.JSON_VERSION);
        root.put("facts", facts(r.facts()));
        root.put("test", r.test());
        root.put("window_ns", r.windowNanos());
        root.put("transactions", r.transactions());
        putIfPresent(root, "transactions_per_second", r.transactionsPerSecond());
        List<JsonObject> flows = new ArrayList<>();
        for (int i = 0; i < r.flowTransactions().size(); i++) {
            JsonObject fl = JsonObject.create();
            fl.put("flow", i);
            fl.put("transactions", r.flowTransactions().get(i));
            putIfPresent(fl, "transactions_per_second", r.flowTransactionsPerSecond(i));
            flows.add(fl);
        }
        root.putObjects("flows", flows);
        LatencyStats s = r.stats();
        JsonObject l = JsonObject.create();
        l.put("unit", "ns");
        l.put("percentile", r.percentile());
        l.put("significant_digits", r.latency().significantDigits());
        l.put("iterations", s.iterations());
        putValues(l, s);
        root.put("latency", l);
        root.putStrings("notes", r.notes());
        return root;
    }

    private static JsonObject facts(RunFacts f) {
        return JsonObject.create()
                .put("linerate", f.version())
                .put("date", f.date())
                .put("uname", f.uname())
                .put("cpu", f.cpu())
                .put("jvm", f.jvm())
                .put("options", f.options());
    }

    /** The values of a latency distribution, ns, each absent without samples. */
    private static void putValues(JsonObject o, LatencyStats s) {
        putIfPresent(o, "mean", s.mean());
        putIfPresent(o, "min", s.min());
        putIfPresent(o, "median", s.median());
        putIfPresent(o, "max", s.max());
        putIfPresent(o, "percentile_value", s.atPercentile());
        putIfPresent(o, "stddev", s.stdDeviation());
    }

    private static void putIfPresent(JsonObject o, String key, OptionalDouble v) {
        if (v.isPresent()) {
            o.put(key, v.getAsDouble());
        }
    }
}
