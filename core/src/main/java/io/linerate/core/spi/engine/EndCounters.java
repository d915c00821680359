package io.linerate.core.spi.engine;

import io.linerate.core.IntervalSample;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What one end of a stream counted by its own clock, as {@link StreamEnd} reports it: the end on
 * this host or the one a peer agent ran.
 *
 * <p>Each end measures its own window: the warm-up and then the duration, from the readings of
 * its own counters, each followed by a reading of its own clock (DESIGN rule 1). A sender's window
 * holds what it sent after taking the window up; a TCP receiver's what it read inside its window,
 * which ends early at its last data when the stream ends first; a UDP receiver's the datagrams the
 * sender stamped with the window's phase, whenever they arrived (DESIGN rule 3).
 *
 * @param sender whether this end sent
 * @param bytes payload bytes sent or received, whole stream (UDP receiver: distinct datagrams only)
 * @param messages writes or datagrams sent; datagrams received; whole stream (TCP receiver: 0)
 * @param windowStartNanos start of this end's window, ns since this end started
 * @param windowEndNanos end of this end's window, ns since this end started
 * @param windowBytes payload bytes of the window, as the class comment says
 * @param windowMessages datagrams the sender completed in the window; distinct window datagrams the
 *     receiver got after draining; 0 for a TCP receiver
 * @param reordered UDP receiver: window datagrams that arrived out of order; 0 otherwise
 * @param duplicates UDP receiver: window datagrams that arrived more than once; 0 otherwise
 * @param foreign UDP receiver: datagrams of another stream or without a linerate header
 * @param jitterNanos UDP receiver: RFC 3550 interarrival jitter, ns; empty otherwise or before the
 *     second datagram
 * @param cpuNanos CPU time of this end's sending or receiving thread, ns
 * @param intervals this end's interval samples, warm-up ones flagged {@code omitted}; a sender's
 *     count bytes and datagrams sent
 * @param interrupted whether the end's window was ended early by an interrupt ({@link StreamEnd#interrupt()}):
 *     the counts are those until then, not those of a whole window
 */
public record EndCounters(boolean sender, long bytes, long messages, long windowStartNanos, long windowEndNanos,
                          long windowBytes, long windowMessages, long reordered, long duplicates, long foreign,
                          OptionalDouble jitterNanos, long cpuNanos, List<IntervalSample> intervals,
                          boolean interrupted) {

    /** Copies the interval list; rejects a null jitter. */
    public EndCounters {
        java.util.Objects.requireNonNull(jitterNanos, "jitterNanos");
        intervals = List.copyOf(intervals);
    }

    /** The counts of a whole window, not interrupted. */
    public EndCounters(boolean sender, long bytes, long messages, long windowStartNanos, long windowEndNanos,
                       long windowBytes, long windowMessages, long reordered, long duplicates, long foreign,
                       OptionalDouble jitterNanos, long cpuNanos, List<IntervalSample> intervals) {
        this(sender, bytes, messages, windowStartNanos, windowEndNanos, windowBytes, windowMessages, reordered,
                duplicates, foreign, jitterNanos, cpuNanos, intervals, false);
    }

    /** @return length of this end's window, ns */
    public long windowNanos() {
        return windowEndNanos - windowStartNanos;
    }

    /** @return this end's figure over its window in bit/s: throughput for a sender, goodput for a receiver; empty for a zero-length window */
    public OptionalDouble bitsPerSecond() {
        return io.linerate.core.Rates.bitsPerSecond(windowBytes, windowNanos());
    }
}
