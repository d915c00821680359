package io.linerate.core;
import io.linerate.core.spi.Transport;

/**
 * One measured movement of data, opened by a {@link Transport} for a {@link TransferSpec}.
 *
 * <p>Lifecycle as in zperf: {@link Transport#open} binds the receiver and connects the sender;
 * {@link #run} starts the receiver, runs the sender until the bound (blocking, never longer than
 * warm-up + bound + the spec's I/O timeout for teardown), stops the receiver and collects both
 * sides' counters. {@link #close()} releases every socket and thread on every path; it is safe to
 * call more than once and after a failed {@code run}.
 */
public interface Transfer extends Measurement {

    /** @return the spec this transfer was opened for */
    @Override
    TransferSpec spec();

    /**
     * Runs the transfer once. Interrupting the calling thread ends the measured window at the next
     * reading and stops both ends within the I/O timeout: the result holds what was measured until
     * then, {@link TransferResult#interrupted()} is true, and the thread's interrupt status is cleared
     * ({@link Measurement#run()}).
     *
     * @param listener receives interval samples on the calling thread while the transfer runs
     * @return both ends' counters
     * @throws TransferException when a peer stops, an I/O call fails or a wait runs past the I/O
     *     timeout; the message says how far the transfer got
     * @throws IllegalStateException if called twice or after close
     */
    @Override
    TransferResult run(IntervalListener listener) throws TransferException;

    /** Runs without interval callbacks; see {@link #run(IntervalListener)}. */
    @Override
    default TransferResult run() throws TransferException {
        return run(IntervalListener.NONE);
    }

}
