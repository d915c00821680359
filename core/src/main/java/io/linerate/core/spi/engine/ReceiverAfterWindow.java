package io.linerate.core.spi.engine;

import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A {@link StreamEnd} receiver's waits once its own window has closed: a UDP receiver's drain of the
 * sender's window datagrams still in flight, a TCP receiver's wait for the end of the stream, and
 * an interrupted TCP receiver's bounded read to that end. Each polls its loop's thread and fails
 * as the end does.
 */
final class ReceiverAfterWindow {
    private static final long POLL_NANOS = 5_000_000L;

    /** The end's own failure check: the loop's failure, or an abort. */
    @FunctionalInterface
    interface FailCheck {
        void failIfFailed() throws TransferException;
    }

    private final TransferSpec spec;
    private final Clock clock;
    private final ReceiverContext rx;
    private final EngineWorker worker;
    private final FailCheck check;

    ReceiverAfterWindow(TransferSpec spec, Clock clock, ReceiverContext rx, EngineWorker worker, FailCheck check) {
        this.spec = spec;
        this.clock = clock;
        this.rx = rx;
        this.worker = worker;
        this.check = check;
    }

    private void failIfFailed() throws TransferException {
        check.failIfFailed();
    }

    void drainUdp(LiveStreamCounters live, LongSupplier peerSent, long hardDeadline) throws TransferException {
        long reportedAt = Long.MIN_VALUE;
        long quiet = StreamEnd.UDP_QUIET_MILLIS * 1_000_000L;
        while (!worker.done()) {
            failIfFailed();
            live.publish();
            long now = clock.nanoTime();
            long sent = peerSent.getAsLong();
            if (sent >= 0) {
                if (reportedAt == Long.MIN_VALUE) {
                    reportedAt = now;
                }
                if (rx.windowDatagrams() >= sent || now - Math.max(reportedAt, rx.lastDataNanos()) > quiet) {
                    return;
                }
            }
            if (now - hardDeadline > 0) {
                // the peer never reported its count: what arrived by the bound is what is reported
                return;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** An interrupted TCP receiver reads on until the end of the stream, if it comes before {@code deadline}. */
    void readToEndWithin(long deadline) throws TransferException {
        while (!worker.done() && clock.nanoTime() - deadline < 0) {
            failIfFailed();
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    void awaitEndOfStream(long hardDeadline) throws TransferException {
        while (!worker.done()) {
            failIfFailed();
            if (clock.nanoTime() - hardDeadline > 0) {
                throw new TransferException(String.format(Locale.ROOT,
                        "TCP receiver did not see the end of the stream within warm-up + duration + the I/O timeout "
                                + "of %d ms after %d bytes", spec.ioTimeout().toMillis(), rx.bytes()), null);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
