package io.linerate.core.spi.engine;

import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.TransferSpec;
import io.linerate.core.fulllog.FullLog;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.spi.Rfc3550Jitter;
import io.linerate.core.spi.SequenceTracker;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a transport's receive loop reports while {@link StreamEngine} runs it. Only the receiving
 * thread calls the mutators; every one is allocation-free and stamps the reading time right after
 * it updated the counters (DESIGN rule 1).
 *
 * <p>Each datagram carries the phase of the transfer in which it was sent (warm-up, measured
 * window, after it). The window's accounting is kept per phase, so it covers exactly the
 * datagrams sent inside the window, also those that arrive after it closed, and the loop holds no
 * branch that flips when the window opens.
 */
public final class ReceiverContext {
    /** Highest one-way delay the histogram holds exactly, ns; larger values are clamped to it. */
    static final long MAX_TRACKED_DELAY_NANOS = 60_000_000_000L;

    private final Clock clock;
    private final int streamId;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong datagrams = new AtomicLong();
    private final AtomicLong windowBytes = new AtomicLong();
    private final AtomicLong windowDatagrams = new AtomicLong();
    private final AtomicLong missing = new AtomicLong();
    private final AtomicLong windowMissing = new AtomicLong();
    /** Lowest and highest sequence numbers of the window's datagrams that arrived; none yet: MAX, -1. */
    private long windowLowest = Long.MAX_VALUE;
    private long windowHighest = -1;
    /** The jitter estimate's bits; NaN until the estimator has its first difference (second datagram). */
    private final AtomicLong jitterBits = new AtomicLong(Double.doubleToRawLongBits(Double.NaN));
    private final AtomicLong lastDataNanos = new AtomicLong(Long.MIN_VALUE);
    private final SequenceTracker tracker = new SequenceTracker();
    private final Rfc3550Jitter jitter = new Rfc3550Jitter();
    private final long[] distinctByPhase = new long[DatagramHeader.PHASES];
    private final long[] reorderedByPhase = new long[DatagramHeader.PHASES];
    private final long[] duplicatesByPhase = new long[DatagramHeader.PHASES];
    private final ExactRangeHistogram[] delayByPhase = new ExactRangeHistogram[DatagramHeader.PHASES];
    private volatile boolean stop;
    private volatile boolean endOfStream;
    private long localBytes;
    private long localWindowBytes;
    private long foreign;
    private FullLog fullLog;

    /**
     * Made by {@link StreamEngine}; public so that a transport can drive its loop in a test.
     *
     * @param spec the transfer's spec
     * @param clock the time source of every reading
     */
    public ReceiverContext(TransferSpec spec, Clock clock) {
        this.clock = clock;
        this.streamId = spec.streamId();
        for (int i = 0; i < delayByPhase.length; i++) {
            delayByPhase[i] = new ExactRangeHistogram(1, MAX_TRACKED_DELAY_NANOS, 3);
        }
    }

    /** @return whether the engine has asked the receiver to stop (it has drained) */
    public boolean stopRequested() {
        return stop;
    }

    /** Asks the loop to stop; {@link StreamEngine} calls it, and so may a test. */
    public void requestStop() {
        stop = true;
    }

    /**
     * Logs every datagram of this stream that arrives to {@code log}; {@link StreamEngine} sets it
     * before the receiving thread starts.
     */
    void fullLog(FullLog log) {
        this.fullLog = log;
    }

    /**
     * Hands the full log's last entries to its writer; {@link StreamEngine} calls it on the
     * receiving thread when the loop has ended.
     */
    void loopEnded() {
        if (fullLog != null) {
            fullLog.finish();
        }
    }

    /** Reports bytes read from a stream. */
    public void received(int n) {
        localBytes += n;
        bytes.lazySet(localBytes);
        lastDataNanos.lazySet(clock.nanoTime());
    }

    /** Reports that the stream ended (the sender shut down its output). */
    public void endOfStream() {
        endOfStream = true;
    }

    /**
     * Accounts one datagram: checks the {@link DatagramHeader}, classifies its sequence number,
     * updates RFC 3550 jitter and the one-way delay histogram of its phase. Datagrams of another
     * stream, of an unknown phase, or too short to hold a header are counted as foreign and
     * otherwise ignored; every other arrival, duplicates included, goes to the full log when
     * there is one.
     *
     * @param buf the datagram, starting at index 0
     * @param length bytes received
     */
    public void datagram(ByteBuffer buf, int length) {
        datagram(buf, 0, length);
    }

    /**
     * Accounts one datagram that starts at {@code index} of {@code buf}, such as one segment of a
     * coalesced ({@code UDP_GRO}) receive; otherwise as {@link #datagram(ByteBuffer, int)}.
     *
     * @param buf the buffer holding the datagram
     * @param index where the datagram (its {@link DatagramHeader}) starts
     * @param length bytes of the datagram
     */
    public void datagram(ByteBuffer buf, int index, int length) {
        long arrival = clock.nanoTime();
        if (!DatagramHeader.matches(buf, index, length, streamId)) {
            foreign++;
            return;
        }
        long sendTime = DatagramHeader.sendTime(buf, index);
        int phase = DatagramHeader.phase(buf, index);
        long seq = DatagramHeader.sequence(buf, index);
        SequenceTracker.Arrival a = tracker.onArrival(seq);
        if (a == SequenceTracker.Arrival.INVALID) {
            foreign++;
            return;
        }
        if (fullLog != null) {
            fullLog.record(seq, length, phase, sendTime, arrival);
        }
        jitter.onArrival(sendTime, arrival);
        delayByPhase[phase].record(Math.max(1, Math.min(arrival - sendTime, MAX_TRACKED_DELAY_NANOS)));
        if (a == SequenceTracker.Arrival.DUPLICATE) {
            duplicatesByPhase[phase]++;
        } else {
            if (a == SequenceTracker.Arrival.REORDERED) {
                reorderedByPhase[phase]++;
            }
            distinctByPhase[phase]++;
            localBytes += length;
            bytes.lazySet(localBytes);
            datagrams.lazySet(tracker.distinct());
            if (phase == DatagramHeader.WINDOW) {
                localWindowBytes += length;
                windowBytes.lazySet(localWindowBytes);
                windowDatagrams.lazySet(distinctByPhase[phase]);
                // the window's datagrams hold one run of sequence numbers: those between its lowest and
                // highest arrivals that have not arrived are the window's, never the warm-up's
                windowLowest = Math.min(windowLowest, seq);
                windowHighest = Math.max(windowHighest, seq);
                windowMissing.lazySet(windowHighest - windowLowest + 1 - distinctByPhase[phase]);
            }
        }
        missing.lazySet(tracker.missingSoFar());
        if (jitter.samples() > 0) {
            jitterBits.lazySet(Double.doubleToRawLongBits(jitter.nanos()));
        }
        lastDataNanos.lazySet(arrival);
    }

    long bytes() {
        return bytes.get();
    }

    long datagrams() {
        return datagrams.get();
    }

    /** @return bytes of distinct datagrams sent inside the measured window that arrived so far */
    long windowBytes() {
        return windowBytes.get();
    }

    /** @return distinct datagrams sent inside the measured window that arrived so far */
    long windowDatagrams() {
        return windowDatagrams.get();
    }

    /** @return numbers below the highest arrival that have not arrived (yet), of every phase */
    long missing() {
        return missing.get();
    }

    /**
     * @return of the window's datagrams, those not arrived (yet) whose numbers lie between the lowest
     *     and highest window datagrams that did: loss inside the window as sequence gaps show it,
     *     without the warm-up's datagrams lost before it, which a first window arrival would otherwise
     *     reveal inside the window
     */
    long windowMissing() {
        return windowMissing.get();
    }

    /** @return the RFC 3550 estimate, ns; NaN before the second datagram */
    double jitterNanos() {
        return Double.longBitsToDouble(jitterBits.get());
    }

    long lastDataNanos() {
        return lastDataNanos.get();
    }

    boolean isEndOfStream() {
        return endOfStream;
    }

    /** Only after the receiving thread has ended. */
    SequenceTracker tracker() {
        return tracker;
    }

    /** Distinct datagrams of a phase that arrived; only after the receiving thread has ended. */
    long distinct(int phase) {
        return distinctByPhase[phase];
    }

    /** Only after the receiving thread has ended. */
    long reordered(int phase) {
        return reorderedByPhase[phase];
    }

    /** Only after the receiving thread has ended. */
    long duplicates(int phase) {
        return duplicatesByPhase[phase];
    }

    /** One-way delays of a phase's arrivals; only after the receiving thread has ended. */
    ExactRangeHistogram delay(int phase) {
        return delayByPhase[phase];
    }

    /** Only after the receiving thread has ended. */
    long foreign() {
        return foreign;
    }
}
