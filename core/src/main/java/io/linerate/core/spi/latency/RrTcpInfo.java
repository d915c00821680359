package io.linerate.core.spi.latency;

import io.linerate.core.RrSpec;
import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.core.spi.tcp.TcpInfoWindow;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code TCP_INFO} (Linux {@code <linux/tcp.h>}) of a request/response run's connections, read
 * by the coordinating thread ({@link RrFlows}) at the measured window's open and close, as each
 * flow's {@link RrConnection} reads it: the flows' sockets, and, where the server runs in this JVM,
 * the server's ends of the same connections (through a {@link TcpInfoSources TCP_INFO source} such
 * as the native layer's sock_diag, or the transport's own {@code getsockopt}). Of several flows the retransmits, in the
 * window and in total, are summed over their connections; the congestion window, RTT, RTT variance,
 * pacing and delivery rates and the MSS are those of the first flow's connection (whose MSS the
 * report's note gives), so that they stay one connection's figures. A connection made after the
 * window opened counts all its retransmits in the window. crr, which opens a connection per
 * transaction, has none to read: its figures are unavailable and say so.
 */
public final class RrTcpInfo {
    /** The flows' {@link LatencyTcpInfo.End#source()}. */
    public static final String CLIENT_SOURCE = "TCP_INFO of the flows' sockets; window: the measured window; retransmits "
            + "summed over the flows' connections, the other figures the first flow's";
    /** The server's {@link LatencyTcpInfo.End#source()} in this JVM. */
    public static final String SERVER_SOURCE = "TCP_INFO of the server's sockets; window: the measured window; retransmits "
            + "summed over its connections, the other figures the first flow's connection's";
    public static final String CRR = "tcp_crr opens and closes a connection per transaction: closed connections "
            + "have no TCP_INFO to read";
    /** Why the server's figures are not read here when it is a peer's, until the peer's replace it. */
    public static final String PEER_SERVER = "the server runs on a peer, which reads its own TCP_INFO";

    private final RrSpec spec;
    private final boolean serverHere;
    private final List<TcpInfoWindow> clients = new ArrayList<>();
    private final List<TcpInfoWindow> servers = new ArrayList<>();
    private LatencyTcpInfo result;

    /** @param spec the run; its endpoint says whether the server is in this JVM */
    RrTcpInfo(RrSpec spec) {
        this.spec = spec;
        this.serverHere = spec.endpoint().remoteAddress().isEmpty();
    }

    /** At the window's open: reads every connected flow's retransmits so far. */
    void open(List<RrFlowLoop> flows) {
        if (!spec.crr()) {
            for (int i = 0; i < flows.size(); i++) {
                windowsOf(flows, i, false);
            }
        }
    }

    /** At the window's close, before the flows close their sockets: reads every figure. */
    void close(List<RrFlowLoop> flows) {
        if (spec.crr()) {
            result = new LatencyTcpInfo(LatencyTcpInfo.End.unavailable(CLIENT_SOURCE, CRR),
                    LatencyTcpInfo.End.unavailable(serverHere ? SERVER_SOURCE : PEER_SERVER, CRR));
            return;
        }
        List<LatencyTcpInfo.End> c = new ArrayList<>();
        List<LatencyTcpInfo.End> s = new ArrayList<>();
        for (int i = 0; i < flows.size(); i++) {
            windowsOf(flows, i, true);
            if (i < clients.size() && clients.get(i) != null) {
                c.add(clients.get(i).end());
                if (serverHere) {
                    s.add(servers.get(i).end());
                }
            }
        }
        LatencyTcpInfo.End server = serverHere ? aggregate(SERVER_SOURCE, s)
                : LatencyTcpInfo.End.unavailable(SERVER_SOURCE, PEER_SERVER);
        result = new LatencyTcpInfo(aggregate(CLIENT_SOURCE, c), server);
    }

    /** @return both ends' figures as {@link #close} read them, or null before */
    LatencyTcpInfo result() {
        return result;
    }

    /** Makes flow {@code i}'s windows if it has connected, opening them now or at the connection's start. */
    private void windowsOf(List<RrFlowLoop> flows, int i, boolean late) {
        while (clients.size() <= i) {
            clients.add(null);
            servers.add(null);
        }
        RrConnection conn = flows.get(i).connection();
        if (clients.get(i) != null || conn == null) {
            return;
        }
        TcpInfoWindow c = window(CLIENT_SOURCE, conn::client);
        TcpInfoWindow s = serverHere ? window(SERVER_SOURCE, conn::server) : null;
        clients.set(i, c);
        servers.set(i, s);
        for (TcpInfoWindow w : serverHere ? List.of(c, s) : List.of(c)) {
            if (late) {
                w.openAtStart();
            } else {
                w.open();
            }
        }
    }

    private static TcpInfoWindow window(String source, Supplier<TcpInfoSources.Found> end) {
        try {
            return TcpInfoWindow.of(source, end.get());
        } catch (IllegalArgumentException e) {
            return TcpInfoWindow.unavailable(source, e.getMessage());
        }
    }

    /**
     * @param source the figures' {@link LatencyTcpInfo.End#source()}
     * @param ends each connection's figures
     * @return the connections' figures summed and the first's kept, as the class says; the first reason otherwise
     */
    public static LatencyTcpInfo.End aggregate(String source, List<LatencyTcpInfo.End> ends) {
        if (ends.isEmpty()) {
            return LatencyTcpInfo.End.unavailable(source, "no flow had connected when the window closed");
        }
        long window = 0;
        long total = 0;
        for (LatencyTcpInfo.End e : ends) {
            if (e.stats().isEmpty()) {
                return LatencyTcpInfo.End.unavailable(source, e.unavailable());
            }
            window += e.stats().get().windowRetransmits();
            total += e.stats().get().totalRetransmits();
        }
        TcpStats f = ends.get(0).stats().get();
        return LatencyTcpInfo.End.read(source, new TcpStats(window, total, f.cwndBytes(), f.rttMicros(),
                f.rttVarMicros(), f.pacingRate(), f.deliveryRate(), f.senderMss(), f.receiverMss()));
    }
}
