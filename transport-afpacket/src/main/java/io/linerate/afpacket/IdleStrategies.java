package io.linerate.afpacket;

import java.util.Optional;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/** The Agrona idle strategies behind {@link RawIdle}; a new instance per loop, as they keep state. */
final class IdleStrategies {
    /** How long the sender's {@link RawIdle#SLEEP} parks at a time, ns. */
    static final long SLEEP_NANOS = 50_000;
    /** The longest the receiver's {@link RawIdle#SLEEP} waits in poll(2), ms; also how often the other modes look for ring errors. */
    static final int POLL_MILLIS = 20;

    private IdleStrategies() {}

    /** @return how the send loop waits for room; yielding when no mode was chosen */
    static IdleStrategy sender(Optional<RawIdle> mode) {
        return of(mode.orElse(RawIdle.YIELD));
    }

    /** @return how the receive loop waits for a block, or null to sleep in poll(2) (no mode chosen, or {@link RawIdle#SLEEP}) */
    static IdleStrategy receiver(Optional<RawIdle> mode) {
        return mode.isEmpty() || mode.get() == RawIdle.SLEEP ? null : of(mode.get());
    }

    private static IdleStrategy of(RawIdle mode) {
        return switch (mode) {
            case BUSY -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy();
            case SLEEP -> new SleepingIdleStrategy(SLEEP_NANOS);
        };
    }
}
