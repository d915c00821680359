package io.linerate.peers.agent.client;

import io.linerate.core.Clock;
import io.linerate.core.Failures;
import io.linerate.core.IntervalListener;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.internal.PeerEndsLookup;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stream in both directions at once between this host and a peer agent: two sessions on the
 * agent, one where this host sends (forward) and one where the agent sends (reverse), each with
 * its own control connection and data socket, opened first and then run together, each counting
 * as {@link RemoteStreamTransfer} does. On the agent they count as two sessions against its
 * {@code --max-sessions}.
 */
public final class RemoteBidir {
    private RemoteBidir() {}

    /**
     * @param spec a duration-bound TCP or UDP spec whose endpoint is remote; both directions run it
     * @param secret the agent's shared secret, when it asks for one
     * @param forward gets the forward direction's intervals (on the calling thread)
     * @param reverse gets the reverse direction's intervals (on a thread of its own)
     * @return both directions, reported apart
     * @throws TransferException when either direction cannot be opened or fails; the message names
     *     the direction, and both are closed
     */
    public static RemoteBidirResult run(TransferSpec spec, Clock clock, Optional<byte[]> secret,
                                        IntervalListener forward, IntervalListener reverse) throws TransferException {
        return run(spec, clock, secret, PeerEndsLookup.defaults(), forward, reverse);
    }

    /**
     * As {@link #run(TransferSpec, Clock, Optional, IntervalListener, IntervalListener)}, with this
     * host's data sockets on {@code ends}.
     *
     * @param ends the ends of the transport this host's data sockets run on
     */
    public static RemoteBidirResult run(TransferSpec spec, Clock clock, Optional<byte[]> secret, PeerEnds ends,
                                        IntervalListener forward, IntervalListener reverse) throws TransferException {
        try (RemoteStreamTransfer f = open(spec, clock, secret, false, ends);
             RemoteStreamTransfer r = open(spec, clock, secret, true, ends)) {
            AtomicReference<Object> back = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    back.set(r.runBothEnds(reverse));
                } catch (TransferException | RuntimeException e) {
                    back.set(e);
                }
            }, "linerate-bidir-reverse");
            t.setDaemon(true);
            t.start();
            RemoteStreamResult fr;
            try {
                fr = f.runBothEnds(forward);
            } catch (TransferException e) {
                r.close();
                join(t, spec);
                throw new TransferException("forward direction: " + Failures.describe(e), e);
            }
            if (fr.interrupted()) {
                t.interrupt(); // the reverse direction closes its windows too, and reports what it counted
            }
            join(t, spec);
            Object rr = back.get();
            if (rr instanceof RemoteStreamResult ok) {
                return new RemoteBidirResult(fr, ok);
            }
            if (rr instanceof Exception e) {
                throw new TransferException("reverse direction: " + Failures.describe(e), e);
            }
            throw new TransferException("reverse direction: no result within " + waitMillis(spec) + " ms of the "
                    + "forward direction's end", null);
        }
    }

    private static RemoteStreamTransfer open(TransferSpec spec, Clock clock, Optional<byte[]> secret, boolean reverse,
                                             PeerEnds ends) throws TransferException {
        try {
            return RemoteStreamTransfer.open(spec, clock, new RemoteOptions(secret, reverse), ends);
        } catch (TransferException e) {
            throw new TransferException((reverse ? "reverse" : "forward") + " direction: " + Failures.describe(e), e,
                    e.isUsageError());
        }
    }

    /** The reverse direction ends within its own bounds: its warm-up, duration and two I/O timeouts. */
    private static long waitMillis(TransferSpec spec) {
        return spec.warmup().toMillis() + spec.bound().amount() / 1_000_000L + 3 * spec.ioTimeout().toMillis() + 1000;
    }

    private static void join(Thread t, TransferSpec spec) {
        try {
            t.join(waitMillis(spec));
        } catch (InterruptedException e) {
            // interrupted after the forward direction ended: the reverse one stops and reports what it counted
            t.interrupt();
            try {
                t.join(3 * spec.ioTimeout().toMillis() + 1000);
            } catch (InterruptedException again) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
