package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.core.spi.engine.StreamEngine;
import java.io.IOException;
import java.nio.channels.NetworkChannel;
import java.nio.channels.Selector;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two connected, non-blocking ends of one transfer with a selector each, and the socket
 * options as applied. Subclasses supply the protocol's send and receive loops.
 *
 * @param <C> the channel type
 */
public abstract class ChannelEndpoints<C extends NetworkChannel> implements NioStreamTransfer.Endpoints {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelEndpoints.class);
    final TransferSpec spec;
    final C sender;
    final C receiver;
    final Selector senderSelector;
    final Selector receiverSelector;
    private final AppliedOptions options;

    ChannelEndpoints(TransferSpec spec, C sender, C receiver, Selector senderSelector, Selector receiverSelector,
                     boolean noDelayApplied, Optional<TcpMss> tcpMss) throws IOException {
        this.spec = spec;
        this.sender = sender;
        this.receiver = receiver;
        this.senderSelector = senderSelector;
        this.receiverSelector = receiverSelector;
        this.options = new AppliedOptions(spec.trafficClass(),
                sender.getOption(java.net.StandardSocketOptions.IP_TOS),
                spec.sendBufferBytes(), SocketBuffers.send(sender),
                spec.receiveBufferBytes(), SocketBuffers.receive(receiver),
                spec.noDelay(), noDelayApplied, tcpMss);
    }

    @Override
    public final AppliedOptions options() {
        return options;
    }

    @Override
    public final StreamEngine.SendLoop sendLoop() {
        return this::send;
    }

    @Override
    public final StreamEngine.ReceiveLoop receiveLoop() {
        return this::receive;
    }

    abstract void send(SenderContext ctx) throws IOException;

    abstract void receive(ReceiverContext ctx) throws IOException;

    @Override
    public final void close() throws IOException {
        NioStreamTransfer.closeAll(List.of(senderSelector, receiverSelector, sender, receiver));
    }

    /** Closes what a failed setup opened; the failure that is already on its way wins. */
    public static void closeQuietly(List<AutoCloseable> opened) {
        try {
            NioStreamTransfer.closeAll(opened);
        } catch (IOException e) {
            // already failing; the descriptors are released regardless
            LOG.debug("closing after a failed set-up reported {}", e.toString());
        }
    }

    /** Tracks how long a sender has been unable to hand data to the kernel. Allocation-free. */
    static final class Stall {
        private final String what;
        private final long timeoutNanos;
        private long since;

        Stall(String what, long timeoutNanos) {
            this.what = what;
            this.timeoutNanos = timeoutNanos;
        }

        /** The kernel took data. */
        void progressed() {
            since = 0;
        }

        /**
         * The kernel took nothing.
         *
         * @throws IOException once nothing was taken for the I/O timeout
         */
        void stalled(long bytesSoFar) throws IOException {
            long now = System.nanoTime();
            if (since == 0) {
                since = now;
            } else if (now - since > timeoutNanos) {
                throw Waits.noProgress(what, timeoutNanos, bytesSoFar);
            }
        }
    }
}
