package io.linerate.nio.agent;

import io.linerate.core.MeasurementSpec;
import io.linerate.core.Metric;
import io.linerate.core.MeasurementResult;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A stream in both directions at once between this host and a peer agent, each direction reported
 * apart: its sender's and receiver's counts, each end with {@code "host":"local"} or
 * {@code "host":"remote"}. {@link #metrics()} are each direction's {@link RemoteStreamResult#metrics()}
 * with the label {@code direction} = {@code forward} (this host sends) or {@code reverse} (the
 * agent sends).
 *
 * @param forward this host sent, the agent received
 * @param reverse the agent sent, this host received
 */
public record RemoteBidirResult(RemoteStreamResult forward, RemoteStreamResult reverse) implements MeasurementResult {

    @Override
    public MeasurementSpec spec() {
        return forward.spec();
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
