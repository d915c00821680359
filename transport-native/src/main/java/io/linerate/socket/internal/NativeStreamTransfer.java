package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.DataPath;
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
import io.linerate.socket.PayloadFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP stream between two native sockets of this JVM on core's {@link StreamEngine}; both ends
 * are open once constructed. The send and receive loops move bytes between the sockets and
 * direct buffers allocated when the transfer opens, by address, so they allocate nothing. The
 * result carries the sender's {@code TCP_INFO} ({@link RetransmitWindow}), and so does each
 * interval sample, read at every tick ({@link SenderTcpProbe}). The spec's
 * {@link io.linerate.core.StreamIo} picks the calls ({@link TcpLoops}): with zero-copy send the
 * sender sends from a {@link PayloadFile} made when the transfer opens and closed with it; with
 * skip-receive-copy the receiver takes the bytes with {@code MSG_TRUNC}. Every result carries the
 * {@link DataPath} of both ends, the default path's too.
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
    /** The payload for sendfile(2), or null when the sender sends from its buffer. */
    private final PayloadFile payloadFile;
    private final TcpCalls senderCalls;
    private final TcpCalls receiverCalls;
    private final TransferLife life = new TransferLife();

    private NativeStreamTransfer(TransferSpec spec, Clock clock, TcpEnds ends, ByteBuffer sendBuffer,
                                 PayloadFile payloadFile) {
        this.spec = spec;
        this.clock = clock;
        this.ends = ends;
        this.sendBuffer = sendBuffer;
        this.payloadFile = payloadFile;
        this.receiveBuffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER_BYTES);
        this.retransmits = new RetransmitWindow(ends.sender);
        this.probe = new SenderTcpProbe(ends.sender);
        this.senderCalls = TcpCalls.sender(spec.io());
        this.receiverCalls = TcpCalls.receiver(spec.io());
    }

    /**
     * Binds the receiver and connects the sender, each bounded by the spec's I/O timeout.
     *
     * @throws TransferException if that fails, or the payload file for {@code sendfile(2)} cannot
     *     be made; nothing is left open
     */
    public static NativeStreamTransfer open(TransferSpec spec, Clock clock) throws TransferException {
        TcpEnds ends = TcpEnds.open(spec);
        ByteBuffer sendBuffer = ByteBuffer.allocateDirect(spec.payloadBytes());
        PayloadFile file;
        try {
            file = spec.io().zeroCopySend() ? PayloadFile.of(sendBuffer) : null;
        } catch (NativeSocketException | RuntimeException e) {
            closeQuietly(ends);
            throw new TransferException("cannot make the payload file to send from with sendfile(2): " + e.getMessage(),
                    e);
        }
        LOG.debug("opened {} on native sockets: {}", spec, ends.options);
        return new NativeStreamTransfer(spec, clock, ends, sendBuffer, file);
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    /** @throws IllegalStateException when run a second time or after {@link #close()} */
    @Override
    public TransferResult run(IntervalListener listener) throws TransferException {
        life.run();
        StreamEngine engine = new StreamEngine(spec, clock, this::send, this::receive, probe);
        TransferResult r = engine.run(ends.options, listener);
        if (probe.failures() > 0) {
            LOG.debug("{}: getsockopt(TCP_INFO) failed at {} interval readings; their intervals have no TCP figures",
                    spec, probe.failures());
        }
        DataPath path = DataPath.of(senderCalls.endOrNone(), receiverCalls.endOrNone(), spec.io());
        try {
            return r.withTcp(retransmits.stats(ends.receiver), ends.readOptions()).withDataPath(path);
        } catch (NativeSocketException e) {
            throw new TransferException("the transfer ran, but TCP_INFO cannot be read after it: " + e.getMessage(), e);
        }
    }

    /** Sends until the context's bound ({@link TcpLoops#send}), then shuts the output down. */
    void send(SenderContext ctx) throws IOException {
        TcpLoops.send(ends.sender, NativeSocket.address(sendBuffer), payloadFile, ctx, retransmits, senderCalls);
    }

    /** Counts bytes until the end of the stream or a stop request ({@link TcpLoops#receive}). */
    void receive(ReceiverContext ctx) throws IOException {
        TcpLoops.receive(ends.receiver, NativeSocket.address(receiveBuffer), RECEIVE_BUFFER_BYTES, ctx, receiverCalls);
    }

    @Override
    public void close() {
        if (life.close()) {
            try (PayloadFile f = payloadFile) {
                ends.close();
                LOG.debug("closed {}", spec);
            } catch (NativeSocketException e) {
                // close(2) releases the descriptors even when it reports an error
                LOG.debug("closed {}; closing reported {}", spec, e.getMessage());
            }
        }
    }

    private static void closeQuietly(TcpEnds ends) {
        try {
            ends.close();
        } catch (NativeSocketException ignored) {
            // close(2) releases the descriptors even when it reports an error
        }
    }
}
