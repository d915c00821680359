package io.linerate.core.spi.tcp;

import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import java.io.IOException;

/**
 * One TCP connection's {@code tcpi_total_retrans} (Linux {@code <linux/tcp.h>}) at both edges of
 * each measured part of a run ({@link #open}, {@link #close}: no allocation once read), and all its
 * {@code TCP_INFO} figures at the end ({@link #end}). The window's retransmits are the sum over the
 * parts of the total at a part's close minus at its open, so a ping-pong's warm-ups between its
 * sizes' measured parts are left out. Not thread-safe: one thread at a time, with a happens-before
 * edge between threads. A read that fails makes the figures unavailable, saying why; it is never
 * thrown and never read as 0.
 */
public final class TcpInfoWindow {
    private final String source;
    private final TcpConnectionInfo info;
    private String unavailable;
    private long window;
    private long partStart = -1;

    private TcpInfoWindow(String source, TcpConnectionInfo info, String unavailable) {
        this.source = source;
        this.info = info;
        this.unavailable = unavailable;
    }

    /**
     * @param source which socket this is, for the result ({@link LatencyTcpInfo.End#source()})
     * @param found a reader of the connection, or why there is none
     * @return the window, not yet opened
     */
    public static TcpInfoWindow of(String source, TcpInfoSources.Found found) {
        return new TcpInfoWindow(source, found.info(), found.info() == null ? found.unavailable() : null);
    }

    /** @return a window whose figures are unavailable for {@code why} */
    public static TcpInfoWindow unavailable(String source, String why) {
        return new TcpInfoWindow(source, null, why);
    }

    /** Opens a measured part: reads the retransmits so far. Does nothing while a part is open. */
    public void open() {
        if (partStart < 0) {
            partStart = retransmits();
        }
    }

    /**
     * Opens a measured part at the connection's start, with no retransmits before it: for a
     * connection made after the measured part began. Reads nothing.
     */
    public void openAtStart() {
        if (partStart < 0) {
            partStart = 0;
        }
    }

    /** Closes the open measured part: adds its retransmits to the window's. Does nothing without one. */
    public void close() {
        if (partStart >= 0) {
            long now = retransmits();
            if (now >= 0) {
                window += now - partStart;
            }
            partStart = -1;
        }
    }

    /**
     * Closes an open part and reads the figures at the end; call while the connection is still open.
     *
     * @return the figures, whose window is the sum of the parts (0 when none was opened), or why
     *     they are unavailable
     */
    public LatencyTcpInfo.End end() {
        close();
        long total = retransmits();
        if (unavailable != null) {
            return LatencyTcpInfo.End.unavailable(source, unavailable);
        }
        long cwnd = info.sndCwnd() < 0 || info.sndMss() < 0 ? -1 : info.sndCwnd() * info.sndMss();
        return LatencyTcpInfo.End.read(source, new TcpStats(Math.min(window, total), total, cwnd, info.rttMicros(),
                info.rttVarMicros(), info.pacingRate(), info.deliveryRate(), info.sndMss(), info.rcvMss()));
    }

    /** @return {@code tcpi_total_retrans} now, or -1 once unavailable */
    private long retransmits() {
        if (unavailable != null) {
            return -1;
        }
        try {
            if (!info.read()) {
                unavailable = "the kernel no longer has the connection " + info.describe();
            } else if (info.totalRetrans() < 0) {
                unavailable = "the kernel's tcp_info of " + info.describe() + " holds no tcpi_total_retrans";
            } else {
                return info.totalRetrans();
            }
        } catch (IOException e) {
            unavailable = "reading the TCP_INFO of " + info.describe() + " failed: " + e.getMessage();
        }
        return -1;
    }
}
