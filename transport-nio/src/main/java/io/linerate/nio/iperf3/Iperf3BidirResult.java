package io.linerate.nio.iperf3;

import io.linerate.core.MeasurementSpec;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * iperf3's bidirectional test against an iperf3 server ({@link Iperf3Client#runBidir}), each
 * direction reported apart as one {@link Iperf3Result}: linerate's own counts
 * ({@code "host":"local"}) and the server's exchanged results for that direction's streams
 * ({@code "host":"remote"}). {@link #metrics()} are each direction's metrics with the label
 * {@code direction} = {@code forward} (linerate sends) or {@code reverse} (the server sends), as
 * for linerate's own agent's bidirectional stream.
 *
 * @param forward linerate sent, the server received
 * @param reverse the server sent, linerate received
 */
public record Iperf3BidirResult(Iperf3Result forward, Iperf3Result reverse) implements MeasurementResult {

    @Override
    public MeasurementSpec spec() {
        return forward.spec();
    }

    /** @return where the two ends' counts disagree, each prefixed with its direction */
    public List<String> notes() {
        List<String> out = new ArrayList<>();
        forward.notes().forEach(n -> out.add("forward: " + n));
        reverse.notes().forEach(n -> out.add("reverse: " + n));
        return out;
    }

    @Override
    public List<String> invalidReasons() {
        List<String> out = new ArrayList<>();
        forward.invalidReasons().forEach(r -> out.add("forward: " + r));
        reverse.invalidReasons().forEach(r -> out.add("reverse: " + r));
        return out;
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> out = new ArrayList<>();
        if (!invalidReasons().isEmpty()) {
            // one invalid direction makes the pair invalid: no numbers to gate on
            return out;
        }
        label(out, forward.metrics(), "forward");
        label(out, reverse.metrics(), "reverse");
        return out;
    }

    private static void label(List<Metric> out, List<Metric> in, String direction) {
        for (Metric m : in) {
            Map<String, String> labels = new TreeMap<>(m.labels());
            labels.put("direction", direction);
            out.add(new Metric(m.name(), m.value(), m.unit(), m.host(), m.timeSeconds(), labels, m.better(), m.advisory()));
        }
    }

    @Override
    public JsonObject detailJson() {
        return JsonObject.create().put("forward", forward.detailJson()).put("reverse", reverse.detailJson());
    }
}
