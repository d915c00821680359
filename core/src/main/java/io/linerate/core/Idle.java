package io.linerate.core;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How a loop that polls for work (a non-blocking socket, a ring) waits after a poll that found
 * nothing: one of Agrona's {@link IdleStrategy idle strategies}. The choice trades CPU for the
 * time it takes to notice new work; none of them allocates. A loop that waits against a deadline
 * checks it after every idle step, so the longest single step ({@link #longestStepNanos()}) bounds
 * how far a wait can overrun its deadline (scheduling delays aside).
 */
public enum Idle {
    /**
     * {@link BusySpinIdleStrategy}: {@link Thread#onSpinWait()} (the PAUSE instruction) and poll
     * again. Burns a core; notices new work soonest.
     */
    BUSY("busy", 0),
    /** {@link YieldingIdleStrategy}: {@link Thread#yield()}. Burns a core unless another thread wants it. */
    YIELD("yield", 0),
    /**
     * {@link BackoffIdleStrategy} with Agrona's defaults: {@value #BACKOFF_SPINS} spins, then
     * {@value #BACKOFF_YIELDS} yields, then parks of 1 µs doubling up to 1 ms, until the next
     * poll finds work. Costs little CPU in long waits and stays quick in short ones.
     */
    BACKOFF("backoff", BackoffIdleStrategy.DEFAULT_MAX_PARK_PERIOD_NS),
    /**
     * {@link SleepingIdleStrategy}: parks for {@value #SLEEP_NANOS} ns after every empty poll; the
     * kernel's timer slack (50 µs by default for normal threads) usually makes the park longer.
     * Costs the least CPU, and wakes late.
     */
    SLEEP("sleep", SleepingIdleStrategy.DEFAULT_SLEEP_PERIOD_NS);

    /** Spins of {@link #BACKOFF} before it yields. */
    public static final long BACKOFF_SPINS = BackoffIdleStrategy.DEFAULT_MAX_SPINS;
    /** Yields of {@link #BACKOFF} before it parks. */
    public static final long BACKOFF_YIELDS = BackoffIdleStrategy.DEFAULT_MAX_YIELDS;
    /** Park of {@link #SLEEP}, ns. */
    public static final long SLEEP_NANOS = SleepingIdleStrategy.DEFAULT_SLEEP_PERIOD_NS;

    private final String label;
    private final long longestStepNanos;

    Idle(String label, long longestStepNanos) {
        this.label = label;
        this.longestStepNanos = longestStepNanos;
    }

    /** @return {@code busy}, {@code yield}, {@code backoff} or {@code sleep} */
    public String label() {
        return label;
    }

    /**
     * @return the longest single park of one idle step, ns, as requested of the kernel (0 for the
     *     strategies that never park)
     */
    public long longestStepNanos() {
        return longestStepNanos;
    }

    /**
     * @return a new strategy of this kind, for one thread: strategies keep state between steps
     *     ({@link IdleStrategy#reset()} starts a new wait)
     */
    public IdleStrategy newStrategy() {
        return switch (this) {
            case BUSY -> new BusySpinIdleStrategy();
            case YIELD -> new YieldingIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(BACKOFF_SPINS, BACKOFF_YIELDS,
                    BackoffIdleStrategy.DEFAULT_MIN_PARK_PERIOD_NS, BackoffIdleStrategy.DEFAULT_MAX_PARK_PERIOD_NS);
            case SLEEP -> new SleepingIdleStrategy(SLEEP_NANOS);
        };
    }

    /**
     * @param text a label, any case
     * @return the kind
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Idle parse(String text) {
        for (Idle i : values()) {
            if (i.label.equalsIgnoreCase(text)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown idle strategy '" + text + "'; allowed: busy, yield, backoff, sleep");
    }

    @Override
    public String toString() {
        return label;
    }
}
