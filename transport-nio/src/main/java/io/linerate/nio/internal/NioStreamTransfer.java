package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.RunOnce;
import io.linerate.core.spi.engine.StreamEngine;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A TCP or UDP stream between two NIO endpoints of this JVM; both ends open when constructed. */
public final class NioStreamTransfer implements Transfer {
    private static final Logger LOG = LoggerFactory.getLogger(NioStreamTransfer.class);
    private final TransferSpec spec;
    private final Clock clock;
    private final Endpoints endpoints;
    private final RunOnce life = new RunOnce("transfer");

    /** The two opened ends of one transfer. */
    public interface Endpoints extends Closeable {
        AppliedOptions options();

        StreamEngine.SendLoop sendLoop();

        StreamEngine.ReceiveLoop receiveLoop();

        /**
         * @param r the engine's result of the run, after both loops ended
         * @return the result with what these ends add, such as the sender's {@code TCP_INFO}; {@code r} itself by default
         */
        default TransferResult finish(TransferResult r) {
            return r;
        }
    }

    private NioStreamTransfer(TransferSpec spec, Clock clock, Endpoints endpoints) {
        this.spec = spec;
        this.clock = clock;
        this.endpoints = endpoints;
    }

    /**
     * Binds the receiver and connects the sender, each bounded by the spec's I/O timeout.
     *
     * @throws TransferException if that fails; nothing is left open
     */
    public static NioStreamTransfer open(TransferSpec spec, Clock clock) throws TransferException {
        Endpoints e = spec.protocol() == Protocol.TCP ? TcpEndpoints.open(spec) : UdpEndpoints.open(spec);
        if (LOG.isDebugEnabled()) {
            AppliedOptions o = e.options();
            LOG.debug("opened {}: traffic class 0x{} (requested 0x{}), SO_SNDBUF {} B (requested {}), SO_RCVBUF {} B "
                    + "(requested {}), TCP_NODELAY {} (requested {}), MSS {}", spec,
                    Integer.toHexString(o.trafficClassApplied()), Integer.toHexString(o.trafficClassRequested()),
                    o.sendBufferApplied(), o.sendBufferRequested(), o.receiveBufferApplied(), o.receiveBufferRequested(),
                    o.noDelayApplied(), o.noDelayRequested(),
                    o.tcpMss().map(m -> m.bytes() + " B (" + m.derivation() + ")").orElse("none"));
        }
        return new NioStreamTransfer(spec, clock, e);
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    @Override
    public TransferResult run(IntervalListener listener) throws TransferException {
        life.begin();
        StreamEngine engine = new StreamEngine(spec, clock, endpoints.sendLoop(), endpoints.receiveLoop());
        return endpoints.finish(engine.run(endpoints.options(), listener));
    }

    @Override
    public void close() {
        if (life.close()) {
            try {
                endpoints.close();
                LOG.debug("closed {}", spec);
            } catch (IOException e) {
                // closing releases the descriptors even when it reports an error
                LOG.debug("closed {}; closing reported {}", spec, e.toString());
            }
        }
    }

    /** Closes every resource, keeping the first failure; never throws for a null entry. */
    public static void closeAll(List<? extends AutoCloseable> resources) throws IOException {
        IOException first = null;
        for (AutoCloseable c : new ArrayList<>(resources)) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof IOException io ? io : new IOException(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
