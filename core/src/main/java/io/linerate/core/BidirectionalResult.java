package io.linerate.core;

import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A transfer in both directions at once (iperf3's {@code --bidir}), each direction a result of its
 * own. The pair is valid when both are; its metrics are each direction's with the label
 * {@code direction} = {@code forward} (this host sends) or {@code reverse} (the peer sends), and
 * none at all when either is invalid, so that the gate never sees half a pair. Its JSON detail
 * holds {@code forward} and {@code reverse}, each that direction's own detail.
 */
public interface BidirectionalResult extends MeasurementResult {
    /** Label that tells the two directions' metrics apart. */
    String DIRECTION_LABEL = StreamMetrics.DIRECTION;

    /** @return this host sent, the peer received */
    MeasurementResult forward();

    /** @return the peer sent, this host received */
    MeasurementResult reverse();

    @Override
    default MeasurementSpec spec() {
        return forward().spec();
    }

    /** @return each direction's reasons, prefixed with {@code forward: } or {@code reverse: } */
    /** @return whether either direction was interrupted */
    @Override
    default boolean interrupted() {
        return forward().interrupted() || reverse().interrupted();
    }

    @Override
    default List<String> invalidReasons() {
        List<String> out = new ArrayList<>();
        forward().invalidReasons().forEach(r -> out.add("forward: " + r));
        reverse().invalidReasons().forEach(r -> out.add("reverse: " + r));
        return out;
    }

    @Override
    default List<Metric> metrics() {
        List<Metric> out = new ArrayList<>();
        if (!invalidReasons().isEmpty()) {
            return out;
        }
        out.addAll(StreamMetrics.labelled(forward().metrics(), DIRECTION_LABEL, StreamMetrics.FORWARD));
        out.addAll(StreamMetrics.labelled(reverse().metrics(), DIRECTION_LABEL, StreamMetrics.REVERSE));
        return out;
    }

    @Override
    default JsonObject detailJson() {
        return JsonObject.create().put("forward", forward().detailJson()).put("reverse", reverse().detailJson());
    }
}
