package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.TcpInfoFit;
import io.linerate.peers.agent.internal.wire.TcpIntervalsJson;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * One stream's result with the agent: both ends' counts joined ({@link EndsJoin}), and the sending
 * socket's {@code TCP_INFO}: at the end of the run this host's where it sends and its transport
 * reads it, else the agent's {@code tcp_info} where it sends; at each interval this host's own
 * where it sends, else the agent's {@code tcp_intervals} joined onto this host's intervals
 * ({@link FarIntervalsJoin}). A UDP stream's receiving socket's drops: this host's where it
 * receives, else the agent's {@code socket_drops}. What the agent did not send is named, not invented: the result stays
 * valid and says why ({@code tcp_info_unavailable}, {@link FarSenderIntervals#unavailable()}).
 */
final class TcpJoin {
    /** Why a TCP stream the agent sent has no {@code tcp_info}. */
    static final String NO_FAR_TCP_INFO = "the agent sent no TCP_INFO of its sending socket: an agent of a release "
            + "before tcp_info, or one whose transport cannot read it (nio without linerate-native on its class path)";
    /** Why a TCP stream the agent sent has no per-interval figures, when its end object holds no {@code tcp_intervals}. */
    static final String NO_TCP_INTERVALS = "the agent sent no per-interval TCP_INFO (tcp_intervals): an agent of a "
            + "release before them keeps its intervals to itself and sends its end-of-run tcp_info only";

    private TcpJoin() {}

    /**
     * @param spec the stream's spec, as this end ran it
     * @param local this end's counts
     * @param lo the socket options as this end applied them
     * @param localTcp this end's sending socket's {@code TCP_INFO} at the end; empty where it receives
     *     or its transport cannot read it
     * @param localPath this end's system calls, where its transport reports them ({@link PathJoin})
     * @param localDrops where this end receives UDP, the datagrams its socket dropped over the stream,
     *     -1 when unknown; where the agent receives, its {@code socket_drops} are taken instead
     * @param result the agent's {@code result} message
     * @param remote the agent's end of this stream in it
     * @param clock how the two hosts' clocks compare
     * @return the stream's result
     * @throws IOException when the agent's counts or options are missing or malformed (its
     *     {@code TCP_INFO} figures, malformed, are left out and the result says why instead)
     */
    static RemoteStreamResult stream(TransferSpec spec, EndCounters local, AppliedOptions lo, Optional<TcpStats> localTcp,
                                     Optional<DataPath.End> localPath, long localDrops, JsonNode result,
                                     JsonNode remote, String clock) throws IOException {
        EndCounters far = EndJson.counters(remote);
        boolean farSendsTcp = far.sender() && spec.protocol() == Protocol.TCP;
        List<IntervalSample> intervals = local.intervals();
        Optional<FarSenderIntervals> note = Optional.empty();
        if (farSendsTcp) {
            Far f = farIntervals(spec, local.intervals(), result, remote);
            intervals = f.intervals();
            note = Optional.of(f.note());
        }
        TransferResult joined = PathJoin.join(EndsJoin.join(spec, local, lo, far, EndJson.options(remote), intervals),
                localPath, local.sender(), remote)
                .withReceiverSocketDrops(local.sender() ? EndJson.socketDrops(remote) : localDrops);
        Optional<TcpStats> tcp = localTcp;
        String leftOut = TcpInfoFit.leftOut(result);
        String noTcp = NO_FAR_TCP_INFO;
        if (tcp.isEmpty()) {
            try {
                tcp = EndJson.tcp(remote);
            } catch (IOException e) {
                noTcp = "the agent's tcp_info is malformed and left out: " + e.getMessage();
            }
        }
        if (tcp.isPresent()) {
            joined = joined.withTcp(tcp.get(), joined.options());
        } else if (farSendsTcp && leftOut != null && !remote.has("tcp_info")) {
            joined = joined.withTcpUnavailable("the agent left this stream's TCP_INFO out: " + leftOut);
        } else if (farSendsTcp) {
            joined = joined.withTcpUnavailable(noTcp);
        }
        return new RemoteStreamResult(joined, local, far, clock, note);
    }

    /** This end's intervals, with the agent's figures where joined, and what became of them. */
    private record Far(List<IntervalSample> intervals, FarSenderIntervals note) {}

    /** @return {@code local} with the agent's per-interval figures joined, or unchanged and why */
    private static Far farIntervals(TransferSpec spec, List<IntervalSample> local, JsonNode result, JsonNode remote) {
        Optional<List<TcpIntervalsJson.Entry>> sent;
        try {
            sent = TcpIntervalsJson.read(remote, TcpIntervalsJson.bound(spec));
        } catch (IOException e) {
            return new Far(local, FarSenderIntervals.unavailable(0,
                    "the agent's per-interval TCP_INFO is malformed and left out: " + e.getMessage()));
        }
        if (sent.isEmpty()) {
            JsonNode leftOut = result.path(TcpIntervalsJson.LEFT_OUT);
            return new Far(local, FarSenderIntervals.unavailable(0, leftOut.isTextual()
                    ? "the agent left its per-interval TCP_INFO out: " + leftOut.asText() : NO_TCP_INTERVALS));
        }
        List<TcpIntervalsJson.Entry> far = sent.get();
        if (far.stream().noneMatch(e -> e.tcp().isPresent())) {
            return new Far(local, FarSenderIntervals.unavailable(far.size(), "the agent's sending end read no TCP_INFO "
                    + "at any of its " + far.size() + " intervals: its transport cannot read it (nio without "
                    + "linerate-native on its class path)"));
        }
        FarIntervalsJoin.Joined j = FarIntervalsJoin.join(local, far);
        if (j.joined() == 0) {
            return new Far(local, FarSenderIntervals.unavailable(far.size(), "none of the agent's " + far.size()
                    + " interval samples has a counterpart among this host's " + local.size() + " intervals ("
                    + FarSenderIntervals.JOIN + ")"));
        }
        return new Far(j.intervals(), new FarSenderIntervals(far.size(), j.joined(), ""));
    }
}
