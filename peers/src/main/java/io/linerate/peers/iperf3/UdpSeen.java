package io.linerate.peers.iperf3;

import io.linerate.core.spi.Rfc3550Jitter;
import io.linerate.core.spi.SequenceTracker;

/**
 * A receiving UDP stream's loss and jitter as its own thread last published them, for the
 * server's interval lines read on another thread: the tracker and the jitter estimator are
 * single-threaded, so the stream's thread copies their figures into volatile fields at most every
 * {@value #PUBLISH_NANOS} ns while data arrives, and once at its end. Allocates nothing.
 */
final class UdpSeen {
    /** How often the figures are published while data arrives, ns. */
    static final long PUBLISH_NANOS = 1_000_000L;

    private volatile long missing;
    /** ns, as {@link Double#doubleToRawLongBits}; NaN for none. */
    private volatile long jitterBits = Double.doubleToRawLongBits(Double.NaN);
    private long publishAt;

    /**
     * On the stream's thread: publishes when {@value #PUBLISH_NANOS} ns passed since the last time, or always.
     *
     * @param now {@link System#nanoTime()} ns
     */
    void publish(SequenceTracker tracker, Rfc3550Jitter jitter, long now, boolean always) {
        if (always || now - publishAt >= 0) {
            publishAt = now + PUBLISH_NANOS;
            missing = tracker.missingSoFar();
            jitterBits = Double.doubleToRawLongBits(jitter.samples() > 0 ? jitter.nanos() : Double.NaN);
        }
    }

    /** @return datagrams found missing by sequence gaps, as last published */
    long missing() {
        return missing;
    }

    /** @return RFC 3550 jitter as last published, ns; NaN before the second datagram */
    double jitterNanos() {
        return Double.longBitsToDouble(jitterBits);
    }
}
