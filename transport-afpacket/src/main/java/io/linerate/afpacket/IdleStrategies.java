package io.linerate.afpacket;

import io.linerate.core.Idle;
import java.util.Optional;
import org.agrona.concurrent.IdleStrategy;

/**
 * How a raw run's loops wait when they have nothing to do, from core's {@link Idle}: the sender
 * while the kernel has no room for its frames (sendmmsg refused with ENOBUFS, or a full TX ring,
 * and while the TX ring drains), the receiver while every ring is empty. The receiver's
 * {@link Idle#SLEEP} sleeps in poll(2) until the kernel hands it a block, rather than parking a
 * fixed time. Pacing never waits here: a paced sender parks until shortly before its next send
 * time ({@link io.linerate.core.PacingWait}). Without a choice the sender yields and the receiver
 * sleeps in poll(2), as the loops did before there was one. A new strategy per loop: they keep
 * state.
 */
final class IdleStrategies {
    /** The longest the receiver's {@link Idle#SLEEP} waits in poll(2), ms; also how often the other modes look for ring errors. */
    static final int POLL_MILLIS = 20;

    private IdleStrategies() {}

    /** @return how the send loop waits for room; yielding when no mode was chosen */
    static IdleStrategy sender(Optional<Idle> mode) {
        return mode.orElse(Idle.YIELD).newStrategy();
    }

    /** @return how the receive loop waits for a block, or null to sleep in poll(2) (no mode chosen, or {@link Idle#SLEEP}) */
    static IdleStrategy receiver(Optional<Idle> mode) {
        return mode.isEmpty() || mode.get() == Idle.SLEEP ? null : mode.get().newStrategy();
    }
}
