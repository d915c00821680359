package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP stream between two native sockets of this JVM on core's {@link StreamEngine}; both ends
 * are open once constructed. The send and receive loops move bytes between the sockets and
 * direct buffers allocated when the transfer opens, by address, so they allocate nothing. The
 * result carries the sender's {@code TCP_INFO} ({@link RetransmitWindow}), and so does each
 * interval sample, read at every tick ({@link SenderTcpProbe}).
 */
public final class NativeStreamTransfer implements Transfer {
    /** Size of the receiver's read buffer, bytes, as the nio transport's. */
    static final int RECEIVE_BUFFER_BYTES = 256 * 1024;
    /** Longest single poll(2) of a loop, ms: how often it looks at the stop flag while waiting. */
    static final int POLL_MILLIS = TcpLoops.POLL_MILLIS;

    private static final Logger LOG = LoggerFactory.getLogger(NativeStreamTransfer.class);

    private final TransferSpec spec;
    private final Clock clock;
    private final TcpEnds ends;
    private final ByteBuffer sendBuffer;
    private final ByteBuffer receiveBuffer;
    private final RetransmitWindow retransmits;
    private final SenderTcpProbe probe;
    private final AtomicBoolean ran = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private NativeStreamTransfer(TransferSpec spec, Clock clock, TcpEnds ends) {
        this.spec = spec;
        this.clock = clock;
        this.ends = ends;
        this.sendBuffer = ByteBuffer.allocateDirect(spec.payloadBytes());
        this.receiveBuffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER_BYTES);
        this.retransmits = new RetransmitWindow(ends.sender);
        this.probe = new SenderTcpProbe(ends.sender);
    }

    /**
     * Binds the receiver and connects the sender, each bounded by the spec's I/O timeout.
     *
     * @throws TransferException if that fails; nothing is left open
     */
    public static NativeStreamTransfer open(TransferSpec spec, Clock clock) throws TransferException {
        TcpEnds ends = TcpEnds.open(spec);
        LOG.debug("opened {} on native sockets: {}", spec, ends.options);
        return new NativeStreamTransfer(spec, clock, ends);
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    /** @throws IllegalStateException when run a second time or after {@link #close()} */
    @Override
    public TransferResult run(IntervalListener listener) throws TransferException {
        if (closed.get()) {
            throw new IllegalStateException("the transfer is closed");
        }
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("a transfer runs once; open a new one");
        }
        StreamEngine engine = new StreamEngine(spec, clock, this::send, this::receive, probe);
        TransferResult r = engine.run(ends.options, listener);
        if (probe.failures() > 0) {
            LOG.debug("{}: getsockopt(TCP_INFO) failed at {} interval readings; their intervals have no TCP figures",
                    spec, probe.failures());
        }
        try {
            return r.withTcp(retransmits.stats(ends.receiver), ends.readOptions());
        } catch (NativeSocketException e) {
            throw new TransferException("the transfer ran, but TCP_INFO cannot be read after it: " + e.getMessage(), e);
        }
    }

    /** Sends until the context's bound ({@link TcpLoops#send}), then shuts the output down. */
    void send(SenderContext ctx) throws IOException {
        TcpLoops.send(ends.sender, NativeSocket.address(sendBuffer), ctx, retransmits);
    }

    /** Counts bytes until the end of the stream or a stop request ({@link TcpLoops#receive}). */
    void receive(ReceiverContext ctx) throws IOException {
        TcpLoops.receive(ends.receiver, NativeSocket.address(receiveBuffer), RECEIVE_BUFFER_BYTES, ctx);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                ends.close();
                LOG.debug("closed {}", spec);
            } catch (NativeSocketException e) {
                // close(2) releases the descriptors even when it reports an error
                LOG.debug("closed {}; closing reported {}", spec, e.getMessage());
            }
        }
    }
}
