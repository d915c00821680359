package io.linerate.nio.internal;

import io.linerate.core.DatagramHeader;
import io.linerate.core.TcpStats;
import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending connection's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) through a
 * {@link io.linerate.core.spi.tcp.TcpInfoSource} found at run time (the native module's reads it
 * over sock_diag netlink; the JDK has no {@code TCP_INFO}): its {@code tcpi_total_retrans} at both
 * ends of the measured window, read on the sending thread as it takes each phase up
 * ({@link #accept}, no allocation), and the figures at the end ({@link #stats}). The window's end
 * is the first message after the engine ended the window (a duration bound); where the sender
 * never sees that (a count bound), the end is the value after the run. Without a source, or when a
 * read fails, {@link #stats} is empty and {@link #unavailable} says why.
 */
final class SenderTcpInfo implements IntConsumer {
    private static final Logger LOG = LoggerFactory.getLogger(SenderTcpInfo.class);

    private final TcpConnectionInfo sender;
    private final TcpConnectionInfo receiver;
    private String unavailable;
    private long start = -1;
    private long end = -1;

    private SenderTcpInfo(TcpConnectionInfo sender, TcpConnectionInfo receiver, String unavailable) {
        this.sender = sender;
        this.receiver = receiver;
        this.unavailable = unavailable;
    }

    /**
     * Finds a source for both connected ends and reads the sender once, so that the reads in the
     * window find the native code linked. Never throws: what fails becomes {@link #unavailable}.
     */
    static SenderTcpInfo open(SocketChannel tx, SocketChannel rx) {
        try {
            TcpInfoSources.Found s = TcpInfoSources.connection((InetSocketAddress) tx.getLocalAddress(),
                    (InetSocketAddress) tx.getRemoteAddress());
            TcpInfoSources.Found r = TcpInfoSources.connection((InetSocketAddress) rx.getLocalAddress(),
                    (InetSocketAddress) rx.getRemoteAddress());
            if (s.info() == null || r.info() == null) {
                return unavailable(s.info() == null ? s.unavailable() : r.unavailable());
            }
            if (!s.info().read()) {
                return unavailable("the kernel has no " + s.info().describe());
            }
            return new SenderTcpInfo(s.info(), r.info(), null);
        } catch (IOException | IllegalArgumentException e) {
            return unavailable(e.getMessage());
        }
    }

    private static SenderTcpInfo unavailable(String why) {
        LOG.debug("the sender's TCP_INFO is unavailable: {}", why);
        return new SenderTcpInfo(null, null, why);
    }

    /**
     * Reads the retransmits when the sender enters the window or leaves it; called by the sending
     * thread before each message. A failed read makes the figures unavailable and is not thrown.
     *
     * @param phase {@link DatagramHeader#WARMUP}, {@code WINDOW} or {@code AFTER}
     */
    @Override
    public void accept(int phase) {
        if (unavailable != null) {
            return;
        }
        if (phase == DatagramHeader.WINDOW && start < 0) {
            start = retransmits();
        } else if (phase == DatagramHeader.AFTER && end < 0) {
            end = retransmits();
            if (start < 0) {
                start = end;
            }
        }
    }

    private long retransmits() {
        try {
            if (sender.read()) {
                return sender.totalRetrans();
            }
            fail("the kernel no longer has " + sender.describe());
        } catch (IOException e) {
            fail(e.getMessage());
        }
        return -1;
    }

    private void fail(String why) {
        unavailable = why;
        LOG.debug("the sender's TCP_INFO became unavailable: {}", why);
    }

    /**
     * Reads both connections' {@code tcp_info} once the run has ended; call after the sending thread ended.
     *
     * @return the figures of the run, or empty when they are {@link #unavailable}
     */
    Optional<TcpStats> stats() {
        if (unavailable != null) {
            return Optional.empty();
        }
        try {
            if (!receiver.read()) {
                fail("the kernel has no " + receiver.describe());
                return Optional.empty();
            }
            if (!sender.read()) {
                fail("the kernel no longer has " + sender.describe());
                return Optional.empty();
            }
        } catch (IOException e) {
            fail(e.getMessage());
            return Optional.empty();
        }
        long total = sender.totalRetrans();
        long e = end < 0 ? total : end;
        long s = start < 0 ? e : start;
        long cwnd = sender.sndCwnd() < 0 || sender.sndMss() < 0 ? -1 : sender.sndCwnd() * sender.sndMss();
        return Optional.of(new TcpStats(e - s, total, cwnd, sender.rttMicros(), sender.rttVarMicros(),
                sender.pacingRate(), sender.deliveryRate(), sender.sndMss(), receiver.rcvMss()));
    }

    /** @return why there are no figures: no source, or a read that failed; null while there are */
    String unavailable() {
        return unavailable;
    }
}
