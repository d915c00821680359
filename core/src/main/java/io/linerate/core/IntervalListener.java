package io.linerate.core;

/**
 * Receives each interval sample while a transfer runs, on the thread that called {@code run}, or, for
 * a run with a peer, on a thread of the run's.
 */
@FunctionalInterface
public interface IntervalListener {
    /** A listener that ignores every sample. */
    IntervalListener NONE = sample -> { };

    /** @param sample the interval just closed */
    void onInterval(IntervalSample sample);

    /**
     * One of several streams' or directions' sample, from a run with a peer of parallel streams or
     * both directions at once; such a run may call it from each stream's own thread. The default
     * passes the sample to {@link #onInterval(IntervalSample)}.
     *
     * @param stream the stream's index, from 0; 0 for each direction of a run both ways
     * @param direction the sample's direction: {@link PeerDirection#FORWARD} when this host sends,
     *     {@link PeerDirection#REVERSE} when it receives
     * @param sample this host's count of the interval
     */
    default void onInterval(int stream, PeerDirection direction, IntervalSample sample) {
        onInterval(sample);
    }
}
