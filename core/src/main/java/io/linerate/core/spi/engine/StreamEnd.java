package io.linerate.core.spi.engine;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.Failures;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.cpu.ThreadAffinity;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Runs one end of a stream whose other end runs elsewhere (a peer agent, another process): a
 * transport's send loop or receive loop on its own thread, and this end's measurement on the
 * calling thread, by this end's own clock. The window follows {@link StreamEngine}'s rules: it
 * opens with the reading at the end of the warm-up, a sender takes it up before its next message
 * and paces on a schedule that starts there, and it closes with the first reading at or after the
 * duration (DESIGN rules 1 and 5). Only duration bounds: the two ends of a remote stream agree on
 * when to stop by time alone. A TCP receiver's clock starts when its first bytes arrive, not when
 * it is run (it waits at most the spec's I/O timeout for them): a sender that starts late, on a
 * slow host or because its caller ran it late, still lands in the receiver's window. The bytes of
 * that first reading count in the stream's total, not in the window or its intervals.
 *
 * <p>A sender stops at the end of its window and ends its stream. A TCP receiver reads until the
 * end of the stream; a UDP receiver until the peer's sender has reported how many datagrams it
 * sent inside its window (the header's phase field marks them) and that many of them arrived, or
 * nothing arrived for {@value #UDP_QUIET_MILLIS} ms after that report.
 *
 * <p>A UDP receiver's window counts are those of the sender's window, not of its own: window
 * bytes and datagrams are the distinct {@link DatagramHeader#WINDOW} datagrams that arrived by the
 * end of the drain, wherever they arrived. Those that arrived after this end's own window closed
 * are reported in one last interval sample (from the close to the end of the drain), and those
 * that arrived during this end's warm-up in its first window sample (the warm-up's sample shows
 * them too, as part of all it received), so that the window's interval samples add up to the end's
 * window counts. Every wait is bounded: the whole end by warm-up + duration + the spec's I/O timeout
 * for the stream, and its teardown by one more I/O timeout. A receiver that hears nothing for its I/O
 * timeout (see {@link Silence}) fails at once with what it counted: a silent path ends it, not its
 * window.
 *
 * <p>An interrupt of the thread that runs the end, or {@link #interrupt()} from another, ends the
 * window at the next turn: the end stops its loop and returns what it counted until then, marked
 * {@link EndCounters#interrupted()}, so that a truncated window never reads as a complete one.
 *
 * <p>While it runs, the end publishes its counters to the process's live counters (what
 * {@code linerate stat} reads), as a stream with both ends here does, from this end's measuring
 * thread.
 */
public final class StreamEnd {
    /** How long a UDP receiver waits for more datagrams after the peer reported its count, ms. */
    public static final long UDP_QUIET_MILLIS = 100;
    private static final long POLL_NANOS = 5_000_000L;
    /** This host's end, for {@code --affinity}'s messages: the client's CPU pins it. */
    private static final String CLIENT = "client (this host's end)";
    /** How often a TCP receiver looks for its first bytes: their reading starts its clock. */
    private static final long FIRST_BYTES_POLL_NANOS = 200_000L;

    private final TransferSpec spec;
    private final Clock clock;
    private final SenderContext tx;
    private final ReceiverContext rx;
    private final EngineWorker worker;
    private final Silence silence;
    private final TcpProbe probe;
    private final TcpFigures figures = new TcpFigures();
    private volatile boolean aborted;
    private volatile boolean interruptAsked;
    private boolean interrupted;

    private StreamEnd(TransferSpec spec, Clock clock, SenderContext tx, ReceiverContext rx, EngineWorker worker,
                      TcpProbe probe) {
        this.probe = probe;
        this.spec = spec;
        this.clock = clock;
        this.tx = tx;
        this.rx = rx;
        this.worker = worker;
        this.silence = new Silence(spec);
    }

    /**
     * @param spec a duration-bound spec
     * @param clock this end's time source
     * @param loop the transport's send loop on a connected socket
     * @return the sending end, not started
     * @throws IllegalArgumentException for a count bound
     */
    public static StreamEnd sender(TransferSpec spec, Clock clock, StreamEngine.SendLoop loop) {
        return sender(spec, clock, loop, null);
    }

    /**
     * As {@link #sender(TransferSpec, Clock, StreamEngine.SendLoop)}, with the sending socket's
     * {@code TCP_INFO} read at every reading, so that each interval carries it
     * ({@link io.linerate.core.TcpIntervalSample}).
     *
     * @param probe the transport's per-interval reading of the socket; null for none
     */
    public static StreamEnd sender(TransferSpec spec, Clock clock, StreamEngine.SendLoop loop, TcpProbe probe) {
        requireDuration(spec);
        SenderContext tx = new SenderContext(spec, clock);
        return new StreamEnd(spec, clock, tx, null,
                new EngineWorker("linerate-end-tx-" + spec.streamId(), CLIENT, spec.affinity().clientCpu(), () -> loop.run(tx)),
                probe);
    }

    /**
     * @param spec a duration-bound spec
     * @param clock this end's time source
     * @param loop the transport's receive loop on a connected socket
     * @return the receiving end, not started
     * @throws IllegalArgumentException for a count bound
     */
    public static StreamEnd receiver(TransferSpec spec, Clock clock, StreamEngine.ReceiveLoop loop) {
        requireDuration(spec);
        ReceiverContext rx = new ReceiverContext(spec, clock);
        return new StreamEnd(spec, clock, null, rx,
                new EngineWorker("linerate-end-rx-" + spec.streamId(), CLIENT, spec.affinity().clientCpu(), () -> loop.run(rx)),
                null);
    }

    private static void requireDuration(TransferSpec spec) {
        if (spec.bound().kind() != Bound.Kind.DURATION) {
            throw new IllegalArgumentException("a stream with a remote end is bounded by a duration, not by "
                    + spec.bound() + ": the two ends agree on when to stop by time");
        }
    }

    /** Stops the end from another thread: {@link #run} fails soon after with what was counted so far. */
    public void abort() {
        aborted = true;
        if (tx != null) {
            tx.requestStop();
        } else {
            rx.requestStop();
        }
    }

    /**
     * Ends this end's window from another thread as an interrupt of the thread that runs it does:
     * {@link #run} closes the window with the reading it takes next (within 5 ms),
     * stops the loop within the I/O timeout and returns what it counted, marked
     * {@link EndCounters#interrupted()}. A TCP receiver then reads on until the end of the stream
     * (its peer stops too) for at most the I/O timeout, which its total counts and its window does
     * not; a UDP receiver does not drain.
     */
    public void interrupt() {
        interruptAsked = true;
    }

    /**
     * Waits until this end's loop runs on its thread (a receiver reads its socket), so that its peer
     * may be told to start sending: datagrams that arrive before it would only fill the socket's
     * buffer and overflow it.
     *
     * @param timeoutNanos the longest to wait, ns
     * @return whether the loop runs (or already ended)
     */
    public boolean awaitRunning(long timeoutNanos) {
        return worker.awaitRunning(timeoutNanos);
    }

    /** @return whether this end sends */
    public boolean sender() {
        return tx != null;
    }

    /**
     * @return payload bytes this end has sent or received so far, over the whole stream; readable
     *     from any thread, also after {@link #run} failed or was aborted (the counts at the stop)
     */
    public long bytesSoFar() {
        return tx != null ? tx.bytes() : rx.bytes();
    }

    /** @return writes or datagrams sent, or distinct datagrams received, so far; as {@link #bytesSoFar()} */
    public long messagesSoFar() {
        return tx != null ? tx.messages() : rx.datagrams();
    }

    /**
     * Runs this end on the calling thread; call once.
     *
     * @param listener receives this end's interval samples on the calling thread
     * @param peerSentMessages for a UDP receiver: the datagrams the peer's sender sent inside its
     *     window once it has reported them, -1 before; called every few ms from the calling thread,
     *     it must not block. Ignored by the other ends.
     * @return what this end counted
     * @throws TransferException when the loop fails, the end is aborted, a receiver heard nothing for
     *     its I/O timeout ({@link Silence}), or a wait runs past its bound; a usage error, before
     *     the loop starts, when the spec's client CPU ({@link TransferSpec#affinity()}) cannot pin it
     */
    public EndCounters run(IntervalListener listener, LongSupplier peerSentMessages) throws TransferException {
        ThreadAffinity.requirePinnable(CLIENT, spec.affinity().clientCpu());
        try (LiveStreamCounters live = LiveStreamCounters.openEnd(spec, tx, rx)) {
            return run(live, live.publishingTo(listener), peerSentMessages);
        }
    }

    private EndCounters run(LiveStreamCounters live, IntervalListener listener, LongSupplier peerSentMessages)
            throws TransferException {
        boolean sending = tx != null;
        boolean udp = spec.protocol() == Protocol.UDP;
        long io = spec.ioTimeout().toNanos();
        long duration = spec.bound().amount();
        long t0 = clock.nanoTime();
        if (sending) {
            tx.start(t0);
            if (spec.warmup().isZero()) {
                tx.openWindow(t0);
            }
        }
        worker.start(Thread.currentThread());
        EndReading first = new EndReading(0, 0, 0, 0, 0, 0, Double.NaN, t0,
                sending ? TcpReading.take(probe, figures) : TcpReading.NONE);
        if (!sending && !udp) {
            // the window starts with the data, not with this end: the sender may start a while later
            first = firstBytes(live, t0, io);
            t0 = first.nanos();
        }
        long hardDeadline = WindowClock.saturatedAdd(WindowClock.saturatedAdd(t0 + spec.warmup().toNanos(), duration), io);
        WindowClock<EndReading> window = new WindowClock<>(clock, first, t0, spec.warmup().toNanos(),
                spec.interval().toNanos(), duration, listener);
        EndReading windowEnd;
        try {
            windowEnd = window.run(new Turn(t0, live), POLL_NANOS);
            if (sending) {
                tx.requestStop();
                if (!worker.awaitDone(io)) {
                    throw new TransferException(String.format(Locale.ROOT,
                            "sender did not stop within the I/O timeout of %d ms after %d bytes",
                            spec.ioTimeout().toMillis(), tx.bytes()), null);
                }
            } else if (interrupted) {
                if (!udp) {
                    // the peer's sender stops too: the bytes in flight count in the total, as a sender counted them
                    afterWindow().readToEndWithin(clock.nanoTime() + io);
                }
            } else if (udp) {
                afterWindow().drainUdp(live, peerSentMessages, hardDeadline);
                EndReading drained = read();
                if (drained.windowDatagrams() > windowEnd.windowDatagrams()) {
                    // the sender's window datagrams that arrived after this end's window closed
                    window.report(windowEnd, drained, false);
                }
            } else {
                afterWindow().awaitEndOfStream(hardDeadline);
            }
            failIfFailed();
        } finally {
            if (sending) {
                tx.requestStop();
            } else {
                rx.requestStop();
            }
            worker.awaitDone(io);
        }
        return counters(window.samples(), window.windowStart(), windowEnd, t0, udp);
    }

    /**
     * One turn of this end's measuring loop: a receiver's window ends early with its stream; a
     * silent path, or a sender whose loop ended before its window closed, fails the end.
     */
    private final class Turn implements WindowClock.Step<EndReading> {
        private final long t0;
        private final LiveStreamCounters live;

        Turn(long t0, LiveStreamCounters live) {
            this.t0 = t0;
            this.live = live;
        }

        @Override
        public void poll() throws TransferException {
            failIfFailed();
            live.publish();
        }

        @Override
        public EndReading read() {
            return StreamEnd.this.read();
        }

        @Override
        public void durationOver() {
            if (tx != null) {
                tx.phase(DatagramHeader.AFTER);
            }
        }

        @Override
        public EndReading endsEarly(long now, EndReading previous) throws TransferException {
            boolean sending = tx != null;
            if (interruptAsked()) {
                // stopped from outside (SIGINT): the window ends here, marked interrupted, never as a complete one
                interrupted = true;
                EndReading last = read();
                durationOver();
                return last;
            }
            if (!sending && worker.done()) {
                // the stream ended before this end's window closed: the window ends at its last data
                return read().at(Math.max(previous.nanos(), rx.lastDataNanos()));
            }
            if (!sending && silence.over(t0, rx.lastDataNanos(), now)) {
                throw new TransferException(silence.reason(spec.protocol().label(), rx.bytes()), null);
            }
            if (sending && worker.done()) {
                throw new TransferException(String.format(Locale.ROOT,
                        "%s sender ended before its window closed after %d bytes",
                        spec.protocol().label(), tx.bytes()), null);
            }
            return null;
        }

        @Override
        public EndReading windowOpened(EndReading opening) {
            if (tx != null) {
                tx.openWindow(opening.nanos());
                return opening;
            }
            // the sender's window datagrams that arrived during this end's warm-up are the window's
            // too: the first window sample counts them
            return spec.protocol() == Protocol.UDP ? opening.withoutWindow() : opening;
        }
    }

    /**
     * A TCP receiver's wait for its first bytes, at most the I/O timeout: its clock starts with the
     * reading that sees them, which is also the baseline its window and intervals count from (the
     * bytes read before it count in the stream's total only). Stops the loop when it fails.
     *
     * @return the reading that saw the first bytes, the stream's end, or the I/O timeout pass
     */
    private EndReading firstBytes(LiveStreamCounters live, long start, long io) throws TransferException {
        try {
            while (rx.bytes() == 0 && !worker.done() && clock.nanoTime() - start < io && !interruptAsked()) {
                failIfFailed();
                live.publish();
                LockSupport.parkNanos(FIRST_BYTES_POLL_NANOS);
            }
            return read();
        } catch (TransferException | RuntimeException e) {
            rx.requestStop();
            worker.awaitDone(io);
            throw e;
        }
    }

    /** @return whether the thread that runs this end was interrupted or {@link #interrupt()} was called; clears the former */
    private boolean interruptAsked() {
        boolean now = Thread.interrupted();
        if (now) {
            interruptAsked = true;
        }
        return interruptAsked;
    }

    /** @return the receiver's waits after its window, failing as this end fails */
    private ReceiverAfterWindow afterWindow() {
        return new ReceiverAfterWindow(spec, clock, rx, worker, this::failIfFailed);
    }

    private void failIfFailed() throws TransferException {
        Throwable e = worker.failure();
        String side = tx != null ? "sender" : "receiver";
        long bytes = tx != null ? tx.bytes() : rx.bytes();
        if (e != null) {
            throw new TransferException(String.format(Locale.ROOT, "%s %s failed after %d bytes: %s",
                    spec.protocol().label(), side, bytes, Failures.describe(e)), e);
        }
        if (aborted) {
            throw new TransferException(String.format(Locale.ROOT, "%s %s stopped after %d bytes: aborted",
                    spec.protocol().label(), side, bytes), null);
        }
    }

    /** Reads every counter of this end, then the clock. */
    private EndReading read() {
        if (tx != null) {
            long bytes = tx.bytes();
            long messages = tx.messages();
            long base = tx.windowBaseBytes();
            long now = clock.nanoTime();
            return new EndReading(bytes, base < 0 ? 0 : Math.max(0, bytes - base), messages, messages, 0, 0, Double.NaN,
                    now, TcpReading.take(probe, figures));
        }
        boolean udp = spec.protocol() == Protocol.UDP;
        long bytes = rx.bytes();
        long datagrams = rx.datagrams();
        long windowBytes = udp ? rx.windowBytes() : bytes;
        long windowDatagrams = udp ? rx.windowDatagrams() : datagrams;
        long missing = rx.missing();
        long windowMissing = udp ? rx.windowMissing() : 0;
        double jitter = rx.jitterNanos();
        return new EndReading(bytes, windowBytes, datagrams, windowDatagrams, missing, windowMissing, jitter,
                clock.nanoTime());
    }

    private EndCounters counters(List<IntervalSample> samples, EndReading start, EndReading end, long t0, boolean udp) {
        int w = DatagramHeader.WINDOW;
        if (tx != null) {
            return new EndCounters(true, tx.bytes(), tx.messages(), start.nanos() - t0, end.nanos() - t0,
                    end.windowBytes() - start.windowBytes(), tx.messages(w), 0, 0, 0, OptionalDouble.empty(),
                    worker.cpuNanos(), samples, interrupted);
        }
        double j = rx.jitterNanos();
        return new EndCounters(false, rx.bytes(), udp ? rx.datagrams() : 0, start.nanos() - t0, end.nanos() - t0,
                udp ? rx.windowBytes() : end.windowBytes() - start.windowBytes(), udp ? rx.distinct(w) : 0,
                udp ? rx.reordered(w) : 0, udp ? rx.duplicates(w) : 0, udp ? rx.foreign() : 0,
                udp && !Double.isNaN(j) ? OptionalDouble.of(j) : OptionalDouble.empty(), worker.cpuNanos(), samples,
                interrupted);
    }
}
