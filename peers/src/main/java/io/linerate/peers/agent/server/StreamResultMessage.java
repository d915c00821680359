package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.TcpInfoFit;
import io.linerate.peers.agent.internal.wire.TcpIntervalsJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The agent's {@code result} message of a stream session: one object per stream in {@code ends}
 * (in order), the first also as {@code end} for a client of one stream. Each holds the end's counts
 * and applied socket options ({@link EndJson#write}); a sending TCP end's also its socket's
 * {@code TCP_INFO} at the end of the run ({@code tcp_info}, where its transport reads it) and at
 * each of its intervals ({@link TcpIntervalsJson}: the samples its {@code StreamEnd} already
 * reported, at most the run's interval count), so that the client reports the far sender's figures
 * as iperf3's client reports its server's after the results exchange. Where its transport reports
 * them, each end's system calls too ({@link EndJson#dataPath}); a receiving UDP end's the datagrams
 * its socket dropped, where known ({@link EndJson#socketDrops(ObjectNode, long)}).
 */
final class StreamResultMessage {
    private StreamResultMessage() {}

    /**
     * @param spec the session's spec
     * @param counters every stream's counts, in order
     * @param channels every stream's data channel, in the same order
     * @return the message, within {@link Control#MAX_MESSAGE_BYTES}: the ends' per-interval figures
     *     ({@link TcpIntervalsJson#fit}) and then their {@code tcp_info} ({@link TcpInfoFit#fit}) are
     *     left out where they would pass it
     * @throws IOException when a channel's {@code TCP_INFO} cannot be read or the message serialized
     */
    static ObjectNode of(TransferSpec spec, List<EndCounters> counters, List<StreamChannel> channels) throws IOException {
        ObjectNode result = Control.message("result");
        ArrayNode all = result.putArray("ends");
        List<ObjectNode> sending = new ArrayList<>();
        List<ArrayNode> intervals = new ArrayList<>();
        int bound = TcpIntervalsJson.bound(spec);
        for (int i = 0; i < channels.size(); i++) {
            EndCounters e = counters.get(i);
            ObjectNode end = EndJson.write(e, channels.get(i).options());
            // a sending end's TCP_INFO, where its transport reads it, so that the client reports the far sender's
            Optional<TcpStats> tcp = channels.get(i).tcpStats();
            if (tcp.isPresent()) {
                EndJson.tcp(end, tcp.get());
            }
            channels.get(i).dataPathEnd().ifPresent(p -> EndJson.dataPath(end, p));
            if (!e.sender()) {
                // the loop ended and the socket is still open: its drops over the whole stream, where known
                EndJson.socketDrops(end, channels.get(i).socketDrops());
            }
            if (e.sender() && spec.protocol() == Protocol.TCP) {
                sending.add(end);
                intervals.add(TcpIntervalsJson.array(e.intervals(), bound));
            }
            all.add(end);
        }
        result.set("end", all.get(0));
        TcpIntervalsJson.fit(result, sending, intervals, Control.MAX_MESSAGE_BYTES);
        // where even without them the ends' tcp_info passes the limit (about 100 parallel TCP senders), some go too
        TcpInfoFit.fit(result, Control.MAX_MESSAGE_BYTES);
        return result;
    }
}
