package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The client's view of its data streams after a test: linerate's own counts of one direction's
 * streams, the results object it sends the server at EXCHANGE_RESULTS, and the server's results
 * matched to one direction's streams by iperf3's stream id.
 */
final class ClientCounts {
    private ClientCounts() {}

    /**
     * @param streams the streams of one direction (all sending or all receiving), ended
     * @return their counts, summed; loss, reordering and jitter only for UDP receivers
     */
    static Iperf3Result.Local local(List<DataStream> streams, boolean udp) {
        long bytes = 0;
        long msgs = 0;
        long distinct = 0;
        long reordered = 0;
        long dups = 0;
        long nanos = 0;
        double jitterSum = 0;
        int jitterStreams = 0;
        for (DataStream s : streams) {
            bytes += s.bytes;
            msgs += s.messages;
            distinct += s.tracker.distinct();
            reordered += s.tracker.reordered();
            dups += s.tracker.duplicates();
            nanos = Math.max(nanos, s.activeNanos());
            if (s.jitter.samples() > 0) {
                jitterSum += s.jitter.nanos();
                jitterStreams++;
            }
        }
        boolean receivingUdp = udp && !streams.isEmpty() && !streams.get(0).sender();
        return new Iperf3Result.Local(bytes, msgs, receivingUdp ? distinct : 0, receivingUdp ? reordered : 0,
                receivingUdp ? dups : 0, jitterStreams > 0 ? OptionalDouble.of(jitterSum / jitterStreams) : OptionalDouble.empty(),
                nanos);
    }

    /**
     * @param streams every stream of the test, ended
     * @param reverse whether the test is iperf3's {@code -R} (linerate sends nothing)
     * @return the client's results object: per stream its bytes, and for UDP its datagrams and, receiving, errors and jitter
     */
    static ObjectNode results(List<DataStream> streams, boolean udp, boolean reverse) {
        ObjectNode r = ControlConnection.object();
        r.put("cpu_util_total", 0.0);
        r.put("cpu_util_user", 0.0);
        r.put("cpu_util_system", 0.0);
        r.put("sender_has_retransmits", reverse ? -1 : 0);
        ArrayNode a = r.putArray("streams");
        for (DataStream s : streams) {
            ObjectNode o = a.addObject();
            o.put("id", s.id);
            o.put("bytes", s.bytes);
            o.put("retransmits", -1);
            boolean rx = udp && !s.sender();
            o.put("jitter", rx ? s.jitter.nanos() / 1e9 : 0.0);
            o.put("errors", rx ? s.tracker.missingSoFar() : 0);
            o.put("packets", udp ? (rx ? s.tracker.highest() + 1 : s.messages) : 0);
            o.put("start_time", 0.0);
            o.put("end_time", s.activeNanos() / 1e9);
        }
        return r;
    }

    /**
     * @param direction the streams of one direction
     * @param all every stream of the test
     * @param remote the server's results, every stream
     * @param server the server, {@code host:port}, for the error
     * @return the server's entries for {@code direction}'s streams, in its order
     * @throws Iperf3Exception when the server sent an entry for a stream id linerate did not open
     */
    static List<Iperf3RemoteStream> remoteOf(List<DataStream> direction, List<DataStream> all, List<Iperf3RemoteStream> remote,
                                             String server) throws Iperf3Exception {
        Set<Integer> opened = all.stream().map(s -> s.id).collect(Collectors.toSet());
        Set<Integer> mine = direction.stream().map(s -> s.id).collect(Collectors.toSet());
        List<Iperf3RemoteStream> out = new ArrayList<>();
        for (Iperf3RemoteStream r : remote) {
            if (!opened.contains(r.id())) {
                throw new Iperf3Exception("iperf3 server " + server + " sent results for stream id " + r.id()
                        + ", which linerate did not open (its ids: " + new java.util.TreeSet<>(opened) + ")");
            }
            if (mine.contains(r.id())) {
                out.add(r);
            }
        }
        return out;
    }
}
