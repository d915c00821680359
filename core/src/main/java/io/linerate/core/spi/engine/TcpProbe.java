package io.linerate.core.spi.engine;

/**
 * A transport's reading of its TCP sending socket's {@code TCP_INFO} (Linux {@code <linux/tcp.h>}
 * {@code struct tcp_info}) at every reading of a {@link StreamEngine} run: once at the start, at
 * each interval tick and at the window's end, on the measuring thread, right after the engine read
 * the stream's counters and the clock. The engine turns two successive readings into an interval's
 * {@link io.linerate.core.TcpIntervalSample}. Optional: a transport that gives none
 * ({@link StreamEngine#StreamEngine(io.linerate.core.TransferSpec, io.linerate.core.Clock,
 * StreamEngine.SendLoop, StreamEngine.ReceiveLoop)}) reports its intervals without TCP figures.
 *
 * <p>Called once per interval, so an implementation must allocate nothing and log nothing per
 * call: it fills the engine's reused {@link TcpFigures}. The socket is the send loop's, but Linux
 * answers {@code getsockopt(TCP_INFO)} from any thread.
 */
@FunctionalInterface
public interface TcpProbe {
    /**
     * Reads the sending socket's figures now.
     *
     * @param into where to put them ({@link TcpFigures#set}); the engine reuses it
     * @return whether they were read; false (a failed {@code getsockopt}) leaves the intervals this
     *     reading bounds without TCP figures
     */
    boolean read(TcpFigures into);
}
