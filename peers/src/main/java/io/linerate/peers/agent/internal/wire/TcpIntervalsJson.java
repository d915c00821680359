package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.IntervalSample;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TransferSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A sending end's {@code TCP_INFO} at each of its intervals on the control connection, sent with its
 * counts once the run is over, as iperf3's server sends its intervals in its results exchange:
 * {@value #FIELD} in the end's object, one object per interval of the end, in order (warm-up ones
 * first):
 * <ul>
 * <li>{@code start_ns}, {@code end_ns}: the interval's ends, ns since that end started, by its own clock;</li>
 * <li>{@code omitted}: {@code true} for a warm-up interval, absent otherwise;</li>
 * <li>where the end read its socket at both ends of the interval, the figures of
 *     {@link TcpIntervalSample} under the names of the result's JSON intervals: {@code retransmits}
 *     (segments), {@code cwnd_bytes} (bytes), {@code tcpi_rtt} and {@code tcpi_rttvar} (µs),
 *     {@code tcpi_pacing_rate} and {@code tcpi_delivery_rate} (bytes/s), -1 where the kernel gave
 *     none; an interval without {@code retransmits} was not read and has none of them.</li>
 * </ul>
 * An agent of an earlier release sends no such field. A result message whose arrays would pass
 * {@link Control#MAX_MESSAGE_BYTES} leaves them out ({@link #fit}).
 */
public final class TcpIntervalsJson {
    /** The end object's field. */
    public static final String FIELD = "tcp_intervals";
    /** The result message's field that says why some end's {@value #FIELD} was left out. */
    public static final String LEFT_OUT = "tcp_intervals_left_out";
    /** Interval objects a reader accepts beyond the run's grid: a UDP receiver's drain adds one sample. */
    private static final int SLACK = 2;
    private static final String[] FIGURES = {"retransmits", "cwnd_bytes", "tcpi_rtt", "tcpi_rttvar", "tcpi_pacing_rate",
            "tcpi_delivery_rate"};

    private TcpIntervalsJson() {}

    /**
     * One interval of the far sender, as {@link #read} gives it.
     *
     * @param startNanos its start, ns since the far end started, by the far end's clock
     * @param endNanos its end, ns, likewise
     * @param omitted whether it lies in the far end's warm-up
     * @param tcp its figures; empty where the far end did not read its socket
     */
    public record Entry(long startNanos, long endNanos, boolean omitted, Optional<TcpIntervalSample> tcp) {
        /** @throws NullPointerException for a null {@code tcp} (use the empty one) */
        public Entry {
            Objects.requireNonNull(tcp, "tcp");
        }
    }

    /**
     * @param spec the stream's spec, as both ends run it
     * @return the most interval objects an end of it sends: one per interval of the warm-up and of
     *     the duration on the interval grid ({@code ceil(warmup / interval) + ceil(duration / interval)}),
     *     plus {@value #SLACK}; at most {@link Integer#MAX_VALUE}
     */
    public static int bound(TransferSpec spec) {
        long interval = Math.max(1, spec.interval().toNanos());
        long warmup = ceilDiv(spec.warmup().toNanos(), interval);
        long duration = ceilDiv(Math.max(0, spec.bound().amount()), interval);
        return (int) Math.min(Integer.MAX_VALUE, warmup + duration + SLACK);
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }

    /**
     * @param intervals a sending end's interval samples, as its {@code StreamEnd} reported them
     * @param bound the most to write ({@link #bound}); the first {@code bound} are written
     * @return the {@value #FIELD} array of them
     */
    public static ArrayNode array(List<IntervalSample> intervals, int bound) {
        ArrayNode a = Control.MAPPER.createArrayNode();
        int n = Math.min(intervals.size(), bound);
        for (int i = 0; i < n; i++) {
            IntervalSample s = intervals.get(i);
            ObjectNode o = a.addObject().put("start_ns", s.startNanos()).put("end_ns", s.endNanos());
            if (s.omitted()) {
                o.put("omitted", true);
            }
            s.tcp().ifPresent(t -> o.put("retransmits", t.retransmits()).put("cwnd_bytes", t.cwndBytes())
                    .put("tcpi_rtt", t.rttMicros()).put("tcpi_rttvar", t.rttVarMicros())
                    .put("tcpi_pacing_rate", t.pacingRate()).put("tcpi_delivery_rate", t.deliveryRate()));
        }
        return a;
    }

    /**
     * Sets each end's array as its {@value #FIELD}, in order, while the serialized result stays
     * within {@code limitBytes}; when one does not fit it is left out, and the result says so in
     * {@value #LEFT_OUT} (the room for that is kept from the start), so that a client of any
     * release can still read the message.
     *
     * @param result the result message, complete but for the arrays; its {@code end}, when it has
     *     one, is the same object as {@code ends.get(0)} (it is counted twice)
     * @param ends the end objects that get an array, each in {@code result}
     * @param arrays each end's array ({@link #array}), in the same order
     * @param limitBytes the largest message, bytes ({@link Control#MAX_MESSAGE_BYTES})
     * @return how many arrays were left out
     * @throws IOException when the message cannot be serialized
     */
    public static int fit(ObjectNode result, List<ObjectNode> ends, List<ArrayNode> arrays, int limitBytes)
            throws IOException {
        String why = "the agent's result message would pass the control connection's limit of " + limitBytes + " bytes";
        long used = size(result) + size(Control.MAPPER.createObjectNode().put(LEFT_OUT, why));
        int leftOut = 0;
        for (int i = 0; i < ends.size(); i++) {
            ObjectNode end = ends.get(i);
            // "name": value, within an object that has fields already
            long cost = (size(arrays.get(i)) + FIELD.length() + 4) * (result.get("end") == end ? 2 : 1);
            if (used + cost <= limitBytes) {
                end.set(FIELD, arrays.get(i));
                used += cost;
            } else {
                leftOut++;
            }
        }
        if (leftOut > 0) {
            result.put(LEFT_OUT, why);
        }
        return leftOut;
    }

    private static long size(JsonNode n) throws IOException {
        return Control.MAPPER.writeValueAsBytes(n).length;
    }

    /**
     * @param end an end's object from the peer
     * @param bound the most interval objects accepted ({@link #bound} of the stream's spec)
     * @return its intervals, in order; empty when it sent no {@value #FIELD} (an agent of an earlier
     *     release, a receiving end, or one left out by {@link #fit})
     * @throws IOException naming the field and the interval's index, when the field is not an array,
     *     holds more than {@code bound} objects, or an object's offset or figure is missing, not an
     *     integer or out of range (retransmits and offsets at least 0, the other figures at least -1)
     */
    public static Optional<List<Entry>> read(JsonNode end, int bound) throws IOException {
        JsonNode a = end.get(FIELD);
        if (a == null) {
            return Optional.empty();
        }
        if (!a.isArray()) {
            throw new IOException("the peer's " + FIELD + " is not an array");
        }
        if (a.size() > bound) {
            throw new IOException("the peer's " + FIELD + " holds " + a.size() + " intervals; allowed: at most "
                    + bound + ", the run's intervals");
        }
        List<Entry> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            out.add(entry(a.get(i), i));
        }
        return Optional.of(out);
    }

    private static Entry entry(JsonNode o, int i) throws IOException {
        if (!o.isObject()) {
            throw new IOException("the peer's " + FIELD + "[" + i + "] is not an object");
        }
        long start = num(o, i, "start_ns", 0);
        long end = num(o, i, "end_ns", start);
        JsonNode omitted = o.path("omitted");
        if (!omitted.isMissingNode() && !omitted.isBoolean()) {
            throw new IOException("the peer's " + FIELD + "[" + i + "].omitted is " + omitted + "; allowed: true or false");
        }
        if (!o.has(FIGURES[0])) {
            return new Entry(start, end, omitted.asBoolean(false), Optional.empty());
        }
        long[] f = new long[FIGURES.length];
        for (int k = 0; k < f.length; k++) {
            f[k] = num(o, i, FIGURES[k], k == 0 ? 0 : -1);
        }
        return new Entry(start, end, omitted.asBoolean(false),
                Optional.of(new TcpIntervalSample(f[0], f[1], f[2], f[3], f[4], f[5])));
    }

    private static long num(JsonNode o, int i, String f, long min) throws IOException {
        JsonNode v = o.get(f);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IOException("the peer's " + FIELD + "[" + i + "]." + f + " is " + (v == null ? "missing" : v)
                    + "; allowed: an integer >= " + min);
        }
        if (v.asLong() < min) {
            throw new IOException("the peer's " + FIELD + "[" + i + "]." + f + " is " + v.asLong()
                    + "; allowed: an integer >= " + min);
        }
        return v.asLong();
    }
}
