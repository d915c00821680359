package io.linerate.nio.agent;

import io.linerate.core.IntervalListener;
import io.linerate.core.TransferException;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.core.spi.engine.StreamEnd;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * The ends of a session's streams, each run on a thread of its own and started together. The first
 * that fails aborts the others, so that a session ends as one.
 */
final class ParallelEnds {
    private final List<StreamEnd> ends;
    private final EndCounters[] counters;
    private final TransferException[] failures;
    private final CountDownLatch left;

    private ParallelEnds(List<StreamEnd> ends) {
        this.ends = List.copyOf(ends);
        this.counters = new EndCounters[ends.size()];
        this.failures = new TransferException[ends.size()];
        this.left = new CountDownLatch(ends.size());
    }

    /**
     * @param peerSent stream i's {@code peerSentMessages} (see {@link StreamEnd#run})
     * @param listener stream i's interval listener, called on that stream's thread
     * @param name the threads' name, followed by the stream's index
     */
    static ParallelEnds start(List<StreamEnd> ends, IntFunction<LongSupplier> peerSent,
                              IntFunction<IntervalListener> listener, String name) {
        ParallelEnds p = new ParallelEnds(ends);
        for (int i = 0; i < ends.size(); i++) {
            int k = i;
            Thread t = new Thread(() -> p.run(k, listener.apply(k), peerSent.apply(k)), name + i);
            t.setDaemon(true);
            t.start();
        }
        return p;
    }

    private void run(int i, IntervalListener listener, LongSupplier peerSent) {
        try {
            counters[i] = ends.get(i).run(listener, peerSent);
        } catch (TransferException | RuntimeException e) {
            synchronized (failures) {
                failures[i] = e instanceof TransferException t ? t
                        : new TransferException("stream " + i + " failed: " + e, e);
            }
            abortAll();
        } finally {
            left.countDown();
        }
    }

    /** @return whether every end has returned or failed */
    boolean done() {
        return left.getCount() == 0;
    }

    /**
     * @param millis the longest to wait, ms
     * @return whether every end has returned or failed
     */
    boolean await(long millis) {
        try {
            return left.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done();
        }
    }

    /** Ends every end's window as an interrupt does ({@link StreamEnd#interrupt()}): each returns what it counted. */
    void interruptAll() {
        ends.forEach(StreamEnd::interrupt);
    }

    /** Aborts every end. */
    void abortAll() {
        ends.forEach(StreamEnd::abort);
    }

    /** @return the first stream's failure by index (with the stream named when there are several), or null */
    TransferException failure() {
        synchronized (failures) {
            for (int i = 0; i < failures.length; i++) {
                if (failures[i] != null) {
                    return ends.size() == 1 ? failures[i]
                            : new TransferException("stream " + i + ": " + failures[i].getMessage(), failures[i]);
                }
            }
        }
        return null;
    }

    /** @return payload bytes of every stream so far */
    long bytesSoFar() {
        return ends.stream().mapToLong(StreamEnd::bytesSoFar).sum();
    }

    /** @return messages of every stream so far */
    long messagesSoFar() {
        return ends.stream().mapToLong(StreamEnd::messagesSoFar).sum();
    }

    /** @return every stream's counts, in order; call after {@link #done()} with no {@link #failure()} */
    List<EndCounters> counters() {
        List<EndCounters> out = new ArrayList<>();
        for (EndCounters c : counters) {
            out.add(c);
        }
        return out;
    }
}
