package io.linerate.peers.iperf3;

import io.linerate.core.BidirectionalResult;
import java.util.ArrayList;
import java.util.List;

/**
 * iperf3's bidirectional test against an iperf3 server ({@link Iperf3Client#runBidir}), each
 * direction reported apart as one {@link Iperf3Result}: linerate's own counts
 * ({@code "host":"local"}) and the server's exchanged results for that direction's streams
 * ({@code "host":"remote"}). Metrics, validity and JSON are {@link BidirectionalResult}'s, as for
 * linerate's own agent's bidirectional stream.
 *
 * @param forward linerate sent, the server received
 * @param reverse the server sent, linerate received
 */
public record Iperf3BidirResult(Iperf3Result forward, Iperf3Result reverse) implements BidirectionalResult {

    /** @return where the two ends' counts disagree, each prefixed with its direction */
    public List<String> notes() {
        List<String> out = new ArrayList<>();
        forward.notes().forEach(n -> out.add("forward: " + n));
        reverse.notes().forEach(n -> out.add("reverse: " + n));
        return out;
    }
}
