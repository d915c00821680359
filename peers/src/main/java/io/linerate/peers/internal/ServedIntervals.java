package io.linerate.peers.internal;

import io.linerate.core.IntervalSample;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedTestListener;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * The interval lines of one served test in one direction, taken from its counters by a thread
 * other than the one that counts (a session's control loop, a sweep), or by the counting thread
 * at an interval boundary: never per packet. Each {@link #tick} at or past a boundary reports the
 * counts since the previous one to the listener; {@link #finish} reports the rest, so that the
 * lines add up to the counts at the end. Boundaries lie at whole intervals from the test's start,
 * as {@code iperf3 -s} reports them; one that is late reports its real end, and the next boundary
 * is the first whole interval after it.
 *
 * <p>Not thread-safe: one thread ticks it.
 */
public final class ServedIntervals {
    /** The reporting interval when the client asks for none: 1 s, as iperf3's. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    /** The shortest interval served: shorter requests are raised to it, as iperf3 allows no less than 0.1 s. */
    public static final Duration MIN_INTERVAL = Duration.ofMillis(100);

    private final ServedTestListener listener;
    private final long test;
    private final int stream;
    private final boolean sent;
    private final boolean udp;
    private final long t0;
    private final long intervalNanos;
    private final long omitEnd;
    private long next;
    private long prevNanos;
    private long prevBytes;
    private long prevDatagrams;
    private long prevMissing;
    private boolean finished;

    /**
     * @param listener receives the lines
     * @param test the test's number
     * @param stream the stream's number, or 0 for all the test's streams of this direction
     * @param sent whether the server sends this data
     * @param udp whether the test is UDP
     * @param t0 the test's start, {@link System#nanoTime()} ns; the counts are 0 there
     * @param interval the reporting interval; raised to {@link #MIN_INTERVAL}
     * @param omitEnd the end of iperf3's omit period, {@link System#nanoTime()} ns; intervals that start
     *     before it are marked omitted (the one across it too, whose bytes after it are then left
     *     out of the lines' sum but not of the test's count); {@code t0} for none
     */
    public ServedIntervals(ServedTestListener listener, long test, int stream, boolean sent, boolean udp, long t0,
                           Duration interval, long omitEnd) {
        this.listener = listener;
        this.test = test;
        this.stream = stream;
        this.sent = sent;
        this.udp = udp;
        this.t0 = t0;
        this.intervalNanos = Math.max(MIN_INTERVAL.toNanos(), interval.toNanos());
        this.omitEnd = omitEnd;
        this.next = t0 + intervalNanos;
        this.prevNanos = t0;
    }

    /** @return whether a boundary has passed at {@code now} ({@link System#nanoTime()} ns) */
    public boolean due(long now) {
        return !finished && now - next >= 0;
    }

    /**
     * Reports the interval up to {@code now} when a boundary has passed; does nothing otherwise.
     *
     * @param now when the counts were read, {@link System#nanoTime()} ns
     * @param bytes bytes so far since the test's start
     * @param datagrams datagrams so far (0 for TCP)
     * @param missing datagrams found missing so far (0 for TCP or data sent)
     * @param jitterNanos RFC 3550 jitter now, ns; NaN for none
     */
    public void tick(long now, long bytes, long datagrams, long missing, double jitterNanos) {
        if (!due(now)) {
            return;
        }
        report(now, bytes, datagrams, missing, jitterNanos);
        long late = now - next;
        next += intervalNanos * (late / intervalNanos + 1);
    }

    /**
     * Reports what came after the last boundary, up to {@code now}, once. A rest that counted nothing
     * and is shorter than a tenth of the interval is not reported, as iperf3 leaves out such a last
     * interval; one that counted bytes always is, so that the lines add up to the counts.
     * Arguments as {@link #tick}.
     */
    public void finish(long now, long bytes, long datagrams, long missing, double jitterNanos) {
        if (finished) {
            return;
        }
        if (bytes != prevBytes || datagrams != prevDatagrams || missing != prevMissing
                || now - prevNanos >= intervalNanos / 10) {
            report(Math.max(now, prevNanos), bytes, datagrams, missing, jitterNanos);
        }
        finished = true;
    }

    private void report(long now, long bytes, long datagrams, long missing, double jitterNanos) {
        OptionalDouble jitter = !udp || sent || Double.isNaN(jitterNanos) || datagrams == prevDatagrams
                ? OptionalDouble.empty() : OptionalDouble.of(jitterNanos);
        IntervalSample s = new IntervalSample(prevNanos - t0, now - t0, bytes - prevBytes,
                udp ? datagrams - prevDatagrams : 0, udp && !sent ? missing - prevMissing : 0, jitter,
                prevNanos - omitEnd < 0);
        prevNanos = now;
        prevBytes = bytes;
        prevDatagrams = datagrams;
        prevMissing = missing;
        listener.onInterval(new ServedInterval(test, stream, sent, udp, s));
    }
}
