package io.linerate.peers.iperf3;

import io.linerate.core.spi.Rfc3550Jitter;

/**
 * A stream's counts when iperf3's omit period ({@code -O N}) ended: the server leaves them out of
 * its results, as iperf3's server resets its counters then. All zero (nothing omitted) until
 * {@link DataStream} captures them, once, on its own thread.
 */
final class OmitBaseline {
    /** When the omit period ends, {@link System#nanoTime()} ns; 0 = none, or already ended. */
    private long endNanos;
    /** When the counts were taken, {@link System#nanoTime()} ns; 0 = never. */
    long atNanos;
    long bytes;
    long messages;
    long distinct;
    /** Highest sequence index seen by then; -1 = none, so {@code highest - this} counts datagrams after it. */
    long highest = -1;
    long reordered;
    long duplicates;

    /** Before the stream starts: its counts at {@code nanos} ({@link System#nanoTime()}) are taken. */
    void until(long nanos) {
        endNanos = nanos;
    }

    /** On the stream's thread, at every send or read: takes the counts once the omit period is over. */
    void check(DataStream s, long now) {
        if (endNanos != 0 && now - endNanos >= 0) {
            endNanos = 0;
            capture(s, now);
        }
    }

    /** Takes {@code s}'s counts at {@code now} and restarts its jitter, as iperf3 does. */
    private void capture(DataStream s, long now) {
        atNanos = now;
        bytes = s.bytes;
        messages = s.messages;
        distinct = s.tracker.distinct();
        highest = s.tracker.highest();
        reordered = s.tracker.reordered();
        duplicates = s.tracker.duplicates();
        s.jitter = new Rfc3550Jitter();
    }
}
