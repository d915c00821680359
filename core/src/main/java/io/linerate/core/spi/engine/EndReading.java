package io.linerate.core.spi.engine;

import io.linerate.core.IntervalSample;
import java.util.OptionalDouble;

/**
 * One stream end's counters read together, then the clock ({@link StreamEnd}): payload bytes and
 * datagrams in all and of the measured window, datagrams missing in all and of the window, RFC 3550
 * jitter in ns (NaN before two arrivals), the clock reading in ns, and a sending end's socket's
 * {@code TCP_INFO} read after the clock ({@link TcpReading#NONE} where not read).
 */
record EndReading(long bytes, long windowBytes, long datagrams, long windowDatagrams, long missing,
                  long windowMissing, double jitterNanos, long nanos, TcpReading tcp)
        implements WindowClock.Sampled<EndReading> {

    /** A reading without {@code TCP_INFO}. */
    EndReading(long bytes, long windowBytes, long datagrams, long windowDatagrams, long missing, long windowMissing,
               double jitterNanos, long nanos) {
        this(bytes, windowBytes, datagrams, windowDatagrams, missing, windowMissing, jitterNanos, nanos, TcpReading.NONE);
    }

    /** @return this reading with no window traffic yet (the window opens here) */
    EndReading withoutWindow() {
        return new EndReading(bytes, 0, datagrams, 0, missing, 0, jitterNanos, nanos, tcp);
    }

    /** @return this reading stamped at clock reading {@code t} */
    EndReading at(long t) {
        return new EndReading(bytes, windowBytes, datagrams, windowDatagrams, missing, windowMissing, jitterNanos, t, tcp);
    }

    /**
     * @param from the reading the interval starts at
     * @param t0 the clock reading the interval times count from
     * @param omitted whether the interval is warm-up: it then counts all traffic, else the window's
     * @return the interval from {@code from} to this reading
     */
    @Override
    public IntervalSample since(EndReading from, long t0, boolean omitted) {
        long b = omitted ? bytes - from.bytes : windowBytes - from.windowBytes;
        long d = omitted ? datagrams - from.datagrams : windowDatagrams - from.windowDatagrams;
        long lost = omitted ? missing - from.missing : windowMissing - from.windowMissing;
        OptionalDouble jitter = d > 0 && !Double.isNaN(jitterNanos) ? OptionalDouble.of(jitterNanos) : OptionalDouble.empty();
        return new IntervalSample(from.nanos - t0, nanos - t0, b, d, lost, jitter, omitted, tcp.since(from.tcp));
    }
}
