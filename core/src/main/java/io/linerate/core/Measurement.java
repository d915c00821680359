package io.linerate.core;
import io.linerate.core.spi.Transport;

/**
 * One run of any {@link Pattern}, opened by a {@link Transport} for a {@link MeasurementSpec}: set
 * up by {@link Transport#open(MeasurementSpec, Clock)}, run once by {@link #run()}, released by
 * {@link #close()} on every path. A stream's measurement is a {@link Transfer}, which adds interval
 * callbacks.
 */
public interface Measurement extends AutoCloseable {

    /** @return the spec this measurement was opened for */
    MeasurementSpec spec();

    /**
     * Runs the measurement once, blocking, never longer than the spec's bound plus its I/O timeout
     * for teardown.
     *
     * <p>Interrupting the calling thread ({@link Thread#interrupt()}, as linerate's command line does
     * on SIGINT) stops a measurement that supports it within its I/O timeout: {@code run} then
     * returns what was measured so far, with {@link MeasurementResult#interrupted()} true, and
     * clears the thread's interrupt status. One that does not support it may instead fail with a
     * {@link TransferException}, or finish its bound.
     *
     * @return what both ends counted
     * @throws TransferException when a peer stops, an I/O call fails or a wait runs past the I/O
     *     timeout; the message says how far the run got
     * @throws IllegalStateException if called twice or after close
     */
    MeasurementResult run() throws TransferException;

    /**
     * Runs the measurement once, as {@link #run()} does, passing each interval sample to
     * {@code listener} while it runs. A stream's measurement reports its intervals; one with a
     * peer reports this host's own sends or receives per interval, each stream's or direction's
     * through {@link IntervalListener#onInterval(int, PeerDirection, IntervalSample)}. The default
     * reports none.
     *
     * @param listener receives interval samples, on a thread of the measurement's
     * @return what both ends counted; against a peer the peer's own result type, which may be a
     *     {@link BidirectionalResult}
     * @throws TransferException as {@link #run()}
     */
    default MeasurementResult run(IntervalListener listener) throws TransferException {
        return run();
    }

    /** Releases every socket, ring and thread. Never throws. */
    @Override
    void close();
}
