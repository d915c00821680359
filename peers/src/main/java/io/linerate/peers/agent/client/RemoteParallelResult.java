package io.linerate.peers.agent.client;

import io.linerate.core.Better;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Metric;
import io.linerate.core.StreamMetrics;
import io.linerate.core.UdpStats;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultLineSink;
import io.linerate.core.spi.engine.EndCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Streams run together in one session with a peer agent ({@code --parallel N}, iperf3's
 * {@code -P}), each reported apart and summed, each end with {@code "host":"local"} or
 * {@code "host":"remote"}.
 *
 * <p>{@link #metrics()}: every stream's {@link RemoteStreamResult#metrics()} with the labels
 * {@code stream} = its index (from 0) and {@code streams} = N, then the sums with {@code stream} =
 * {@code sum} (and {@code direction}): per host the sum of the streams' rates at that host
 * ({@code <marker>_sent_mbps} at the sender's, {@code <marker>_mbps} at the receiver's), each
 * over its own window as in {@link RemoteStreamResult} (the streams start together, so their
 * windows nearly coincide; iperf3's SUM divides the summed bytes by one test time instead);
 * {@code <marker>_cpu_us_per_kb} is the host's CPU µs of all its streams' threads per KiB of all
 * their payload (not a sum of ratios); for UDP {@code <marker>_lost_pct} is 100 x (the window
 * datagrams sent by all streams - those received) / those sent, at the receiver's host. An invalid
 * stream makes the whole invalid: no metrics then.
 *
 * @param streams every stream, in order; at least one
 */
public record RemoteParallelResult(List<RemoteStreamResult> streams) implements MeasurementResult {
    /** @throws IllegalArgumentException for no stream */
    public RemoteParallelResult {
        streams = List.copyOf(streams);
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("a parallel result holds at least one stream");
        }
    }

    @Override
    public MeasurementSpec spec() {
        return streams.get(0).spec();
    }

    /** @return whether any stream was interrupted */
    @Override
    public boolean interrupted() {
        return streams.stream().anyMatch(RemoteStreamResult::interrupted);
    }

    @Override
    public List<String> invalidReasons() {
        if (streams.size() == 1) {
            return streams.get(0).invalidReasons();
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            for (String r : streams.get(i).invalidReasons()) {
                out.add("stream " + i + ": " + r);
            }
        }
        return out;
    }

    /** @return the bytes of every stream's end at {@code host} ({@code local} or {@code remote}), summed */
    public long bytes(String host) {
        return sum(host, EndCounters::bytes);
    }

    /** @return the window bytes of every stream's end at {@code host}, summed */
    public long windowBytes(String host) {
        return sum(host, EndCounters::windowBytes);
    }

    /**
     * @return the sum of every stream's UDP counts: window datagrams sent, received, lost; empty for TCP
     */
    public java.util.Optional<long[]> udpSum() {
        if (streams.get(0).transfer().udp().isEmpty()) {
            return java.util.Optional.empty();
        }
        long sent = 0;
        long received = 0;
        long lost = 0;
        for (RemoteStreamResult r : streams) {
            UdpStats u = r.transfer().udp().orElseThrow();
            sent += u.datagramsSent();
            received += u.datagramsReceived();
            lost += u.lost();
        }
        return java.util.Optional.of(new long[] {sent, received, lost});
    }

    private long sum(String host, Function<EndCounters, Long> f) {
        long s = 0;
        for (RemoteStreamResult r : streams) {
            s += f.apply(end(r, host));
        }
        return s;
    }

    private static EndCounters end(RemoteStreamResult r, String host) {
        return host.equals(Metric.LOCAL) ? r.local() : r.remote();
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> out = new ArrayList<>();
        if (!invalidReasons().isEmpty()) {
            return out;
        }
        String n = Integer.toString(streams.size());
        String marker = streams.get(0).transfer().marker();
        boolean localSends = streams.get(0).local().sender();
        // the sender's host sums _sent_mbps, the receiver's _mbps
        String[] hosts = {Metric.LOCAL, StreamMetrics.REMOTE};
        String[] rateNames = {localSends ? StreamMetrics.sent(marker) : StreamMetrics.goodput(marker),
                localSends ? StreamMetrics.goodput(marker) : StreamMetrics.sent(marker)};
        double[] mbps = {0, 0};
        int[] counted = {0, 0};
        double t = 0;
        for (int i = 0; i < streams.size(); i++) {
            for (Metric m : streams.get(i).metrics()) {
                out.add(labelled(m, Integer.toString(i), n));
                int h = m.host().equals(Metric.LOCAL) ? 0 : 1;
                if (m.name().equals(rateNames[h])) {
                    mbps[h] += m.value();
                    counted[h]++;
                    t = Math.max(t, m.timeSeconds());
                }
            }
        }
        Map<String, String> sumLabels = Map.of(StreamMetrics.STREAM, StreamMetrics.SUM, StreamMetrics.STREAMS, n,
                StreamMetrics.DIRECTION, StreamMetrics.direction(localSends));
        double time = t;
        for (int h = 0; h < 2; h++) {
            String host = hosts[h];
            if (counted[h] == streams.size()) {
                out.add(new Metric(rateNames[h], mbps[h], ResultLineSink.UNIT, hosts[h], t, sumLabels, Better.HIGHER));
            }
            serviceDemand(host).ifPresent(d -> out.add(new Metric(StreamMetrics.cpu(marker), d, "us/KiB",
                    host, time, sumLabels, Better.LOWER).asAdvisory()));
        }
        udpSum().filter(u -> u[0] > 0).ifPresent(u -> out.add(new Metric(StreamMetrics.lost(marker), 100.0 * u[2] / u[0], "%",
                StreamMetrics.host(!localSends), time, sumLabels, Better.LOWER)));
        return out;
    }

    /** @return CPU µs of all streams' threads at {@code host} per KiB of all their payload; empty when they moved none */
    public OptionalDouble serviceDemand(String host) {
        long bytes = bytes(host);
        long cpu = sum(host, EndCounters::cpuNanos);
        return bytes <= 0 ? OptionalDouble.empty() : OptionalDouble.of((cpu / 1e3) / (bytes / 1024.0));
    }

    private static Metric labelled(Metric m, String stream, String n) {
        Map<String, String> labels = new java.util.TreeMap<>(m.labels());
        labels.put("stream", stream);
        labels.put("streams", n);
        return new Metric(m.name(), m.value(), m.unit(), m.host(), m.timeSeconds(), labels, m.better(), m.advisory());
    }

    @Override
    public JsonObject detailJson() {
        if (streams.size() == 1) {
            return streams.get(0).detailJson();
        }
        List<JsonObject> each = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            each.add(JsonObject.create().put("stream", i).putAll(streams.get(i).detailJson()));
        }
        JsonObject sum = JsonObject.create().put("streams", streams.size());
        for (String host : List.of(Metric.LOCAL, "remote")) {
            sum.put(host, JsonObject.create().put("role", end(streams.get(0), host).sender() ? "sender" : "receiver")
                    .put("bytes", bytes(host)).put("window_bytes", windowBytes(host))
                    .put("cpu_ns", sum(host, EndCounters::cpuNanos))
                    .put("service_demand_us_per_kib", serviceDemand(host)));
        }
        udpSum().ifPresent(u -> sum.put("udp", JsonObject.create().put("sent", u[0]).put("received", u[1])
                .put("lost", u[2])));
        return JsonObject.create().putObjects("streams", each).put("sum", sum);
    }
}
