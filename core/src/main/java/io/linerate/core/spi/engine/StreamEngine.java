package io.linerate.core.spi.engine;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.Failures;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.ProcessCpu;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.fulllog.FullLog;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.spi.SequenceTracker;
import io.linerate.core.spi.cost.InstructionCount;
import io.linerate.core.spi.cpu.ThreadAffinity;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs one stream transfer: a transport's receive loop and send loop on their own threads, and
 * the measurement on the calling thread. Transport-independent; a transport supplies the loops.
 *
 * <p>Measurement (DESIGN section 4): every interval sample and both window ends are a reading of
 * the receiver's counters followed by a clock reading. A duration-bound window opens with the reading
 * at the end of the warm-up and ends with the first reading at or after its duration from there, and bytes that arrive later are in the totals but not in the window. A
 * count-bound window ends at the receiver's last data. Every wait is bounded by the spec's I/O
 * timeout. An interrupt of the measuring thread ends the window at the next reading, as its bound
 * would, and the result says it was interrupted ({@link io.linerate.core.Transfer#run}).
 *
 * <p>The window's traffic is what the sender sent inside it: the sender takes the window up
 * before its next message and paces it on a schedule that starts at the opening reading. Bytes
 * sent in the warm-up (a TCP sender's queue, a backlog the receiver had not read yet) are the
 * warm-up's even when they arrive inside the window. So neither figure of a paced window can
 * exceed the target by more than one message: the sender's rate because of the schedule, the
 * receiver's goodput because it counts only that traffic.
 */
public final class StreamEngine {
    /** How long a UDP receiver waits after the last datagram before it is considered drained. */
    static final long UDP_DRAIN_QUIET_NANOS = 100_000_000L;

    /** A transport's send loop; see {@link SenderContext}. */
    @FunctionalInterface
    public interface SendLoop {
        /** Sends until {@link SenderContext#nextMessageBytes()} is 0; must not block past the I/O timeout. */
        void run(SenderContext ctx) throws IOException;
    }

    /** A transport's receive loop; see {@link ReceiverContext}. */
    @FunctionalInterface
    public interface ReceiveLoop {
        /**
         * Receives until end of stream (TCP) or until {@link ReceiverContext#stopRequested()}; must
         * check the stop flag at least every few milliseconds.
         */
        void run(ReceiverContext ctx) throws IOException;
    }

    /** The sending end, for {@code --affinity}'s messages: the client's CPU pins it. */
    private static final String CLIENT = "client (the sending end)";
    /** The receiving end, for {@code --affinity}'s messages: the server's CPU pins it. */
    private static final String SERVER = "server (the receiving end)";

    private final TransferSpec spec;
    private final Clock clock;
    private final SenderContext tx;
    private final ReceiverContext rx;
    private final EngineWorker sender;
    private final EngineWorker receiver;
    private final TcpProbe tcpProbe;
    private final TcpFigures tcpFigures = new TcpFigures();
    private long processCpuAtStart = -1;
    /** Whether an interrupt of the measuring thread ended the window early. */
    private boolean interrupted;

    /**
     * @param spec what to measure
     * @param clock the time source of every reading
     * @param sendLoop the transport's sender
     * @param receiveLoop the transport's receiver
     */
    public StreamEngine(TransferSpec spec, Clock clock, SendLoop sendLoop, ReceiveLoop receiveLoop) {
        this(spec, clock, sendLoop, receiveLoop, null);
    }

    /**
     * A TCP stream whose transport reads the sending socket's {@code TCP_INFO} at every reading:
     * each interval sample then carries {@link IntervalSample#tcp()}.
     *
     * @param spec what to measure
     * @param clock the time source of every reading
     * @param sendLoop the transport's sender
     * @param receiveLoop the transport's receiver
     * @param tcpProbe reads the sending socket on the measuring thread after each reading's counters;
     *     null for none
     */
    public StreamEngine(TransferSpec spec, Clock clock, SendLoop sendLoop, ReceiveLoop receiveLoop, TcpProbe tcpProbe) {
        this.tcpProbe = tcpProbe;
        this.spec = spec;
        this.clock = clock;
        this.tx = new SenderContext(spec, clock);
        this.rx = new ReceiverContext(spec, clock);
        this.sender = new EngineWorker("linerate-tx-" + spec.streamId(), CLIENT, spec.affinity().clientCpu(),
                () -> sendLoop.run(tx));
        this.receiver = new EngineWorker("linerate-rx-" + spec.streamId(), SERVER, spec.affinity().serverCpu(), () -> {
            try {
                receiveLoop.run(rx);
            } finally {
                rx.loopEnded();
            }
        });
    }

    /**
     * Runs the transfer on the calling thread; returns when both loops ended. Call once.
     *
     * @param options socket options as the transport applied them, for the result
     * @param listener receives each interval sample on the calling thread
     * @return the result
     * @throws TransferException if a loop failed or a wait ran past the I/O timeout; both loops
     *     are told to stop and joined (bounded) first; a usage error when the spec's full log
     *     cannot be created, or when its affinity cannot pin an end here (before either starts).
     *     A full log is closed on every path.
     */
    public TransferResult run(AppliedOptions options, IntervalListener listener) throws TransferException {
        ThreadAffinity.requirePinnable(CLIENT, spec.affinity().clientCpu());
        ThreadAffinity.requirePinnable(SERVER, spec.affinity().serverCpu());
        FullLog log = openFullLog();
        try (LiveStreamCounters live = LiveStreamCounters.open(spec, tx, rx)) {
            rx.fullLog(log);
            return measure(options, live.publishingTo(listener), live, log);
        } finally {
            if (log != null) {
                log.close();
            }
        }
    }

    private FullLog openFullLog() throws TransferException {
        if (spec.fullLog().isEmpty()) {
            return null;
        }
        Path file = spec.fullLog().get();
        try {
            return FullLog.open(file, spec.ioTimeout());
        } catch (IOException e) {
            throw new TransferException(e.getMessage(), e, true);
        }
    }

    private TransferResult measure(AppliedOptions options, IntervalListener listener, LiveStreamCounters live,
                                   FullLog log) throws TransferException {
        long ioTimeout = spec.ioTimeout().toNanos();
        Bound bound = spec.bound();
        boolean durationBound = bound.kind() == Bound.Kind.DURATION;
        Thread monitor = Thread.currentThread();
        receiver.start(monitor);
        // the receiver reads before the first message leaves: on a slow host a thread can take longer to
        // start than a socket buffer takes to fill, and what overflows then is this end's loss, not the path's
        receiver.awaitRunning(ioTimeout);
        processCpuAtStart = ProcessCpu.nanos();
        long t0 = clock.nanoTime();
        tx.start(t0);
        if (spec.warmup().isZero()) {
            tx.openWindow(t0); // before the first message leaves
        }
        sender.start(monitor);
        Reading first = new Reading(0, 0, 0, 0, 0, 0, 0, 0, Double.NaN, sender.allocatedBytes(), receiver.allocatedBytes(), t0,
                TcpReading.take(tcpProbe, tcpFigures));
        // a duration-bound window lasts its duration from the reading that opened it
        WindowClock<Reading> window = new WindowClock<>(clock, first, t0, spec.warmup().toNanos(), spec.interval().toNanos(),
                durationBound ? bound.amount() : -1, listener);
        Reading windowEnd;
        try {
            windowEnd = window.run(new Turn(live, durationBound, ioTimeout), 50_000_000L);
            tx.requestStop();
            if (!sender.awaitDone(ioTimeout)) {
                throw new TransferException(String.format(Locale.ROOT,
                        "sender did not stop within the I/O timeout of %d ms after %d bytes",
                        spec.ioTimeout().toMillis(), tx.bytes()), null);
            }
            failIfAnyFailed();
            drainReceiver(ioTimeout);
            failIfAnyFailed();
        } finally {
            tx.requestStop();
            rx.requestStop();
            sender.awaitDone(ioTimeout);
            receiver.awaitDone(ioTimeout);
        }
        // the receiving thread has ended and handed over its last entries
        Optional<FullLogSummary> logged = log == null ? Optional.empty() : Optional.of(log.closeAndSummarize());
        if (interrupted) {
            // the run took the interrupt, also one a listener gave again at the window's last sample
            Thread.interrupted();
        }
        return result(options, window.samples(), t0, window.windowStart(), windowEnd, logged);
    }

    /** One turn of the measuring loop with both ends here: a count-bound window ends once the receiver has it all. */
    private final class Turn implements WindowClock.Step<Reading> {
        private final LiveStreamCounters live;
        private final boolean durationBound;
        private final long ioTimeout;
        private long txDoneAt = Long.MIN_VALUE;

        Turn(LiveStreamCounters live, boolean durationBound, long ioTimeout) {
            this.live = live;
            this.durationBound = durationBound;
            this.ioTimeout = ioTimeout;
        }

        @Override
        public void poll() throws TransferException {
            failIfAnyFailed();
            live.publish();
        }

        @Override
        public Reading read() {
            return StreamEngine.this.read();
        }

        @Override
        public void durationOver() {
            tx.phase(DatagramHeader.AFTER);
        }

        @Override
        public Reading endsEarly(long now, Reading previous) throws TransferException {
            if (Thread.interrupted()) {
                // stopped from outside (SIGINT): the window ends here, and what it holds is the result
                interrupted = true;
                Reading last = read();
                tx.phase(DatagramHeader.AFTER);
                return last;
            }
            if (durationBound) {
                return null;
            }
            if (sender.done() && txDoneAt == Long.MIN_VALUE) {
                txDoneAt = now;
            }
            if (txDoneAt != Long.MIN_VALUE && received(now, txDoneAt, ioTimeout)) {
                Reading last = read().at(Math.max(previous.nanos(), rx.lastDataNanos()));
                tx.phase(DatagramHeader.AFTER);
                return last;
            }
            return null;
        }

        @Override
        public Reading windowOpened(Reading opening) {
            tx.openWindow(opening.nanos());
            return opening;
        }
    }

    /** Count bound: whether the receiver has everything it will get, after the sender finished. */
    private boolean received(long now, long txDoneAt, long ioTimeout) throws TransferException {
        if (spec.protocol() == Protocol.TCP) {
            if (receiver.done()) {
                return true;
            }
            if (now - txDoneAt > ioTimeout) {
                throw new TransferException(String.format(Locale.ROOT,
                        "receiver did not see the end of the stream within %d ms: %d of %d bytes arrived",
                        spec.ioTimeout().toMillis(), rx.bytes(), tx.bytes()), null);
            }
            return false;
        }
        return udpDrained(now, txDoneAt, ioTimeout);
    }

    private boolean udpDrained(long now, long txDoneAt, long ioTimeout) {
        if (rx.datagrams() >= tx.messages()) {
            return true;
        }
        long quietSince = Math.max(txDoneAt, rx.lastDataNanos());
        return now - quietSince > UDP_DRAIN_QUIET_NANOS || now - txDoneAt > ioTimeout;
    }

    private void drainReceiver(long ioTimeout) throws TransferException {
        long txDoneAt = clock.nanoTime();
        if (spec.protocol() == Protocol.UDP) {
            while (!udpDrained(clock.nanoTime(), txDoneAt, ioTimeout) && !receiver.done()) {
                LockSupport.parkNanos(1_000_000L);
            }
            rx.requestStop();
        }
        if (!receiver.awaitDone(ioTimeout)) {
            throw new TransferException(String.format(Locale.ROOT,
                    "receiver did not finish within the I/O timeout of %d ms: %d of %d bytes arrived",
                    spec.ioTimeout().toMillis(), rx.bytes(), tx.bytes()), null);
        }
    }

    private void failIfAnyFailed() throws TransferException {
        Throwable e = sender.failure();
        String side = "sender";
        if (e == null) {
            e = receiver.failure();
            side = "receiver";
        }
        if (e != null) {
            throw new TransferException(String.format(Locale.ROOT,
                    "%s %s failed after %d bytes sent and %d received: %s",
                    spec.protocol().label(), side, tx.bytes(), rx.bytes(), Failures.describe(e)), e);
        }
    }

    private Reading read() {
        return Reading.take(spec.protocol(), tx, rx, sender, receiver, clock, tcpProbe, tcpFigures);
    }

    private TransferResult result(AppliedOptions options, List<IntervalSample> samples, long t0,
                                  Reading start, Reading end, Optional<FullLogSummary> logged) {
        List<String> reasons = new ArrayList<>();
        long bytesSent = tx.bytes();
        long messagesSent = tx.messages();
        long bytesReceived = rx.bytes();
        long windowNanos = end.nanos() - start.nanos();
        if (windowNanos <= 0) {
            reasons.add(spec.bound().kind() == Bound.Kind.DURATION
                    ? "the measured window has no length"
                    : "the transfer ended inside the warm-up of " + spec.warmup().toMillis()
                            + " ms: raise the count or lower --warmup");
        } else if (spec.protocol() == Protocol.TCP && end.windowReceived() == start.windowReceived()) {
            reasons.add(EmptyWindow.tcp(windowNanos, end.windowSent() - start.windowSent(), spec.payloadBytes(),
                    spec.rateBitsPerSecond()));
        }
        Optional<UdpStats> udp = Optional.empty();
        if (spec.protocol() == Protocol.TCP) {
            if (bytesReceived != bytesSent) {
                reasons.add("receiver counted " + bytesReceived + " bytes but the sender sent " + bytesSent);
            }
        } else {
            SequenceTracker t = rx.tracker();
            int w = DatagramHeader.WINDOW;
            long sent = tx.messages(w);
            long got = rx.distinct(w);
            OptionalDouble jitter = got > 0 && !Double.isNaN(end.jitterNanos())
                    ? OptionalDouble.of(end.jitterNanos()) : OptionalDouble.empty();
            udp = Optional.of(new UdpStats(sent, got, Math.max(0, sent - got), rx.reordered(w), rx.duplicates(w),
                    jitter, rx.delay(w).copy()));
            if (windowNanos > 0 && got == 0) {
                reasons.add(EmptyWindow.udp(windowNanos, sent, spec.payloadBytes(), spec.rateBitsPerSecond()));
            } else if (t.distinct() == 0) {
                reasons.add("no datagram arrived");
            }
            if (rx.foreign() > 0) {
                reasons.add(rx.foreign() + " datagrams of another stream or without a linerate header arrived");
            }
        }
        if (options.trafficClassApplied() != options.trafficClassRequested()) {
            reasons.add(String.format(Locale.ROOT, "traffic class 0x%02x requested but 0x%02x applied",
                    options.trafficClassRequested(), options.trafficClassApplied()));
        }
        return TransferResult.builder(spec).bytesSent(bytesSent).messagesSent(messagesSent)
                .bytesReceived(bytesReceived).window(start.nanos() - t0, end.nanos() - t0)
                .windowBytesSent(end.windowSent() - start.windowSent())
                .windowBytesReceived(end.windowReceived() - start.windowReceived()).udp(udp)
                .intervals(samples).options(options).senderCpuNanos(sender.cpuNanos())
                .receiverCpuNanos(receiver.cpuNanos())
                .senderAllocatedBytes(allocatedBetween(start.txAllocated(), end.txAllocated()))
                .receiverAllocatedBytes(allocatedBetween(start.rxAllocated(), end.rxAllocated()))
                .invalidReasons(reasons).fullLog(logged)
                .processCpuNanos(ProcessCpu.between(processCpuAtStart, ProcessCpu.nanos()))
                .instructions(instructions()).interrupted(interrupted).build();
    }

    private InstructionCount instructions() {
        if (sender.instructions() >= 0 && receiver.instructions() >= 0) {
            return InstructionCount.of(sender.instructions(), receiver.instructions());
        }
        String why = sender.instructionsUnavailable() != null ? sender.instructionsUnavailable()
                : receiver.instructionsUnavailable();
        return InstructionCount.unavailable(why != null ? why : "the measuring threads were not counted");
    }

    private static long allocatedBetween(long start, long end) {
        return start < 0 || end < 0 ? -1 : end - start;
    }
}
