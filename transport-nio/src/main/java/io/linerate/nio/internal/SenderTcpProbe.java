package io.linerate.nio.internal;

import io.linerate.core.spi.engine.TcpFigures;
import io.linerate.core.spi.engine.TcpProbe;
import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's per-interval reading of an NIO sending connection's {@code tcp_info}, through a
 * {@link TcpInfoSources TCP_INFO source} (the native layer's sock_diag) found at run time, with a
 * reader of its own on the measuring thread: no allocation, no logging per call. The congestion
 * window is {@code tcpi_snd_cwnd × tcpi_snd_mss}, as iperf3 computes its {@code Cwnd}. A failed read
 * leaves the intervals it bounds without figures.
 */
final class SenderTcpProbe implements TcpProbe {
    private static final Logger LOG = LoggerFactory.getLogger(SenderTcpProbe.class);
    private final TcpConnectionInfo sender;

    private SenderTcpProbe(TcpConnectionInfo sender) {
        this.sender = sender;
    }

    /**
     * @param tx the sending end, connected
     * @return a probe of its connection; empty where no source can read it (the reason is logged once, at debug)
     */
    static Optional<TcpProbe> of(SocketChannel tx) {
        try {
            TcpInfoSources.Found s = TcpInfoSources.connection((InetSocketAddress) tx.getLocalAddress(),
                    (InetSocketAddress) tx.getRemoteAddress());
            if (s.info() == null) {
                LOG.debug("no per-interval TCP_INFO: {}", s.unavailable());
                return Optional.empty();
            }
            return Optional.of(new SenderTcpProbe(s.info()));
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("no per-interval TCP_INFO: {}", e.toString());
            return Optional.empty();
        }
    }

    @Override
    public boolean read(TcpFigures into) {
        try {
            if (!sender.read() || sender.totalRetrans() < 0) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        long cwnd = sender.sndCwnd() < 0 || sender.sndMss() < 0 ? -1 : sender.sndCwnd() * sender.sndMss();
        into.set(sender.totalRetrans(), cwnd, sender.rttMicros(), sender.rttVarMicros(), sender.pacingRate(),
                sender.deliveryRate());
        return true;
    }
}
