package io.linerate.core.live;

import java.util.function.LongConsumer;

/**
 * The progress of a run of several transfers (a suite, repeated runs), from
 * {@link LiveCounters#progress(String, long)}: steps done of steps in all. One thread writes it.
 */
public final class RunProgress implements AutoCloseable {
    private static final CounterType[] TYPES = CounterGroup.Kind.PROGRESS.types().toArray(new CounterType[0]);

    private final CounterSlots slots;
    private final LongConsumer done;

    RunProgress(CounterSlots slots, long total) {
        this.slots = slots;
        this.done = slots.counter(CounterType.DONE);
        slots.counter(CounterType.TOTAL).accept(total);
        slots.heartbeat();
    }

    static CounterType[] types() {
        return TYPES.clone();
    }

    /**
     * @param total steps in all
     * @return a progress report nobody else sees
     */
    public static RunProgress detached(long total) {
        return new RunProgress(CounterSlots.detached(TYPES), total);
    }

    /** @param steps steps completed so far */
    public void done(long steps) {
        done.accept(steps);
        slots.heartbeat();
    }

    /** Frees the counters. Idempotent; never throws. */
    @Override
    public void close() {
        slots.close();
    }
}
