package io.linerate.core;

/** Receives each interval sample while a transfer runs, on the thread that called {@code run}. */
@FunctionalInterface
public interface IntervalListener {
    /** A listener that ignores every sample. */
    IntervalListener NONE = sample -> { };

    /** @param sample the interval just closed */
    void onInterval(IntervalSample sample);
}
