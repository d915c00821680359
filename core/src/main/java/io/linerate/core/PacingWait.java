package io.linerate.core;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Waits for a {@link Pacer}'s deadline without burning a core: parks until shortly before it, then
 * hands the last few microseconds to an idle strategy (a busy spin by default).
 *
 * <p>A park wakes late: Linux lets a timer fire up to the thread's timer slack (50 µs by default)
 * after the time asked for, and the wake-up takes a few microseconds more. That lateness, the
 * <i>slack</i>, is measured on every park that ran its full length (one that was cut short by an
 * unpark or a spurious wake-up measures nothing), as an exponentially weighted mean with gain 1/8
 * of the samples, each clamped to [0, {@value #MAX_SLACK_NANOS}] ns, the estimate starting at 0. A
 * wait of {@code r} ns parks for {@code r − slack} ns when {@code r} exceeds the slack, so that it
 * wakes about on time; whatever is left is spent in the idle strategy. A wake-up later than the
 * deadline delays one message, not the rate: the pacer's schedule is kept from its origin.
 *
 * <p>The caller loops, so that it can check its own stop flag and deadline between steps:
 * <pre>{@code
 * long wait;
 * while (!stop && (wait = pacer.nanosUntilNext(sent, now = clock.nanoTime())) > 0) {
 *     pacingWait.step(now, wait);
 * }
 * }</pre>
 * One instance per waiting thread; {@link #step} allocates nothing and never logs.
 */
public final class PacingWait {
    /** Longest single park, ns (10 ms): a waiting sender sees a stop request within about this. */
    public static final long MAX_PARK_NANOS = 10_000_000L;
    /** Largest slack sample taken into the estimate, ns (1 ms): one preemption must not make every wait spin. */
    public static final long MAX_SLACK_NANOS = 1_000_000L;

    private static final int UP_SHIFT = 4;
    private static final int DOWN_SHIFT = 2;
    private static final int DECAY_SHIFT = 4;

    /** Parks the calling thread; {@link LockSupport#parkNanos(long)} outside tests. */
    @FunctionalInterface
    public interface Parker {
        /** @param nanos how long to park, more than 0 */
        void park(long nanos);
    }

    private final Clock clock;
    private final Parker parker;
    private final IdleStrategy tail;
    private long slackNanos;
    private long deadline = Long.MIN_VALUE;
    private long parks;

    /**
     * Parks with {@link LockSupport#parkNanos(long)} and busy-spins the tail.
     *
     * @param clock the pacer's clock
     */
    public PacingWait(Clock clock) {
        this(clock, LockSupport::parkNanos, new BusySpinIdleStrategy());
    }

    /**
     * @param clock the pacer's clock; read after every park to measure its lateness
     * @param parker how to park
     * @param tail what to do when the deadline is closer than the slack, one turn per {@link #step}
     */
    public PacingWait(Clock clock, Parker parker, IdleStrategy tail) {
        this.clock = clock;
        this.parker = parker;
        this.tail = tail;
    }

    /**
     * One step towards a deadline: a park of {@code min(remainingNanos − slack, MAX_PARK_NANOS)} ns
     * when {@code remainingNanos} exceeds the slack estimate, otherwise one turn of the idle
     * strategy. Returns early for the caller to read the clock and ask its pacer again.
     *
     * @param now the clock reading {@code remainingNanos} was computed from
     * @param remainingNanos ns until the deadline; nothing happens when 0 or less
     */
    public void step(long now, long remainingNanos) {
        if (remainingNanos <= 0) {
            return;
        }
        long deadline = now + remainingNanos;
        boolean newWait = deadline != this.deadline;
        this.deadline = deadline;
        if (remainingNanos > slackNanos) {
            long request = Math.min(remainingNanos - slackNanos, MAX_PARK_NANOS);
            parker.park(request);
            long late = clock.nanoTime() - (now + request);
            if (late >= 0) {
                long sample = Math.min(late, MAX_SLACK_NANOS);
                slackNanos += sample > slackNanos ? (sample - slackNanos) >> UP_SHIFT : -((slackNanos - sample) >> DOWN_SHIFT);
                parks++;
            }
            tail.reset();
        } else {
            if (newWait) {
                // a whole wait inside the slack: no park measures the slack now, so let it decay
                // until one does, or an estimate raised by a burst of late wake-ups would stick
                slackNanos -= slackNanos >> DECAY_SHIFT;
            }
            tail.idle();
        }
    }

    /** @return the current estimate of a park's lateness, ns, in [0, {@value #MAX_SLACK_NANOS}] */
    public long slackNanos() {
        return slackNanos;
    }

    /** @return how many parks ran their full length and were measured */
    public long measuredParks() {
        return parks;
    }
}
