package io.linerate.core.spi.engine;

import io.linerate.core.Clock;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import java.util.OptionalDouble;

/**
 * One reading of a stream's counters (DESIGN section 4): every counter of both ends read together,
 * then the clock. Interval samples and both window ends of a {@link StreamEngine} run are the
 * differences of two readings.
 *
 * @param bytes bytes the receiver counted
 * @param windowReceived bytes of the window's traffic the receiver counted
 * @param datagrams datagrams the receiver counted
 * @param windowDatagrams datagrams of the window's traffic the receiver counted
 * @param missing datagrams the receiver counts as missing
 * @param windowMissing of the window's datagrams, those the receiver counts as missing
 * @param sent bytes the sender sent
 * @param windowSent bytes the sender sent in the window
 * @param jitterNanos the receiver's RFC 3550 jitter in ns, NaN before two datagrams
 * @param txAllocated bytes the sending thread allocated, -1 where not measured
 * @param rxAllocated bytes the receiving thread allocated, -1 where not measured
 * @param nanos the clock reading taken after the counters
 * @param tcp the sending socket's {@code TCP_INFO}, read after the clock; {@link TcpReading#NONE} where not read
 */
record Reading(long bytes, long windowReceived, long datagrams, long windowDatagrams, long missing,
               long windowMissing, long sent, long windowSent, double jitterNanos, long txAllocated, long rxAllocated,
               long nanos, TcpReading tcp) implements WindowClock.Sampled<Reading> {

    /**
     * Reads every counter, then the clock. The window's traffic is what the sender sent after it
     * took the window up ({@link SenderContext#windowBaseBytes()}): for TCP the stream's bytes
     * after that base, for UDP the datagrams stamped with the window's phase. Bytes sent in the
     * warm-up that arrive inside the window are not the window's, so neither a late receiver nor
     * data a sender queued in the warm-up lifts the window above what was sent inside it. The base
     * is read after the receiver's count: when it is not yet set, no byte of the window had been
     * written, so none had arrived. Then the transport's {@link TcpProbe}, if any, reads
     * {@code TCP_INFO}: after the clock, so that the interval's times stay those of its counters.
     *
     * @param probe the transport's probe, or null for none
     * @param figures the holder the probe fills, reused
     */
    static Reading take(Protocol protocol, SenderContext tx, ReceiverContext rx, EngineWorker sender,
                        EngineWorker receiver, Clock clock, TcpProbe probe, TcpFigures figures) {
        long bytes = rx.bytes();
        long datagrams = rx.datagrams();
        long windowDatagrams = rx.windowDatagrams();
        long windowUdpBytes = rx.windowBytes();
        long missing = rx.missing();
        long windowMissing = rx.windowMissing();
        long sent = tx.bytes();
        long base = tx.windowBaseBytes();
        double jitter = rx.jitterNanos();
        long txAlloc = sender.allocatedBytes();
        long rxAlloc = receiver.allocatedBytes();
        long windowReceived = protocol == Protocol.UDP ? windowUdpBytes : base < 0 ? 0 : Math.max(0, bytes - base);
        long windowSent = base < 0 ? 0 : Math.max(0, sent - base);
        long now = clock.nanoTime();
        return new Reading(bytes, windowReceived, datagrams, windowDatagrams, missing, windowMissing, sent, windowSent,
                jitter, txAlloc, rxAlloc, now, TcpReading.take(probe, figures));
    }

    /** @return these counters, as if read at {@code t} */
    Reading at(long t) {
        return new Reading(bytes, windowReceived, datagrams, windowDatagrams, missing, windowMissing, sent, windowSent,
                jitterNanos, txAllocated, rxAllocated, t, tcp);
    }

    /**
     * @param from the reading that opened the interval
     * @param t0 the transfer's start, ns, which sample times are relative to
     * @param omitted whether the interval is in the warm-up
     * @return the interval from {@code from} to this reading
     */
    @Override
    public IntervalSample since(Reading from, long t0, boolean omitted) {
        // a warm-up interval counts every arrival; a window interval the window's traffic, so that
        // the window's intervals add up to the window's total; so does the loss
        long b = omitted ? bytes - from.bytes : windowReceived - from.windowReceived;
        long d = omitted ? datagrams - from.datagrams : windowDatagrams - from.windowDatagrams;
        long lost = omitted ? missing - from.missing : windowMissing - from.windowMissing;
        // the jitter of an interval without datagrams does not exist: absent, never 0
        OptionalDouble jitter = d > 0 && !Double.isNaN(jitterNanos)
                ? OptionalDouble.of(jitterNanos) : OptionalDouble.empty();
        return new IntervalSample(from.nanos - t0, nanos - t0, b, d, lost, jitter, omitted, tcp.since(from.tcp));
    }
}
