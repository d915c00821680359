package io.linerate.peers.iperf3;

import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Ends a test {@link Iperf3Client} runs when its thread is interrupted, as iperf3's own client
 * ends on SIGINT ({@code iperf_got_sigend} in iperf3's src/iperf_api.c): every stream stops,
 * CLIENT_TERMINATE goes to the server, and no results are exchanged.
 */
final class Iperf3Terminate {
    private Iperf3Terminate() {}

    /**
     * Stops the streams, giving their threads the I/O timeout in all to end, and sends
     * CLIENT_TERMINATE (a server gone already is passed over).
     *
     * @param streams every stream of the test
     * @param spec the test's spec
     * @param options the test's options
     * @param bidir whether the test runs both directions
     * @param timeoutMillis the I/O timeout, ms
     * @param control the control connection
     * @return linerate's own counts until the interrupt, marked interrupted, with no server
     *     results; for a bidirectional test the forward one then the reverse one
     */
    static List<Iperf3Result> results(List<DataStream> streams, TransferSpec spec, Iperf3Options options, boolean bidir,
                                      long timeoutMillis, ControlConnection control) {
        for (DataStream s : streams) {
            s.ending();
            s.stop();
        }
        long until = System.nanoTime() + timeoutMillis * 1_000_000L;
        for (DataStream s : streams) {
            try {
                s.join(Math.max(1, (until - System.nanoTime()) / 1_000_000L));
            } catch (InterruptedException e) {
                break; // a second interrupt: the counts so far are the result; the client closes the streams
            }
        }
        try {
            control.send(Iperf3State.CLIENT_TERMINATE);
        } catch (Iperf3Exception | RuntimeException ignored) {
            // the server may be gone already
        }
        boolean udp = spec.protocol() == Protocol.UDP;
        List<Iperf3Result> out = new ArrayList<>();
        if (!bidir) {
            out.add(new Iperf3Result(spec, options, control.server(), ClientCounts.local(streams, udp), List.of(),
                    Optional.empty(), false, true));
            return out;
        }
        List<DataStream> fwd = streams.stream().filter(DataStream::sender).toList();
        List<DataStream> rev = streams.stream().filter(st -> !st.sender()).toList();
        out.add(new Iperf3Result(spec, options, control.server(), ClientCounts.local(fwd, udp), List.of(),
                Optional.empty(), true, true));
        out.add(new Iperf3Result(spec, options.withReverse(true), control.server(), ClientCounts.local(rev, udp),
                List.of(), Optional.empty(), true, true));
        return out;
    }
}
