package io.linerate.peers.agent.internal.wire;

import io.linerate.core.IntervalListener;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
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
public final class ParallelEnds {
    /** The fewest streams of one session. */
    public static final int MIN_STREAMS = 1;
    /** The most streams of one session (iperf3's {@code -P} allows 128). */
    public static final int MAX_STREAMS = 128;
    private final List<StreamEnd> ends;
    private final EndCounters[] counters;
    private final TransferException[] failures;
    private final CountDownLatch left;

    /**
     * @param spec the session's spec; its rate is the whole session's
     * @param i the stream's index, from 0
     * @param n the session's streams
     * @return the spec of stream {@code i}: its stream id moved on by {@code i}, and its share of the
     *     rate (the rate / n, the remainder to stream 0; 0 stays unlimited)
     */
    public static TransferSpec streamSpec(TransferSpec spec, int i, int n) {
        if (n == 1) {
            return spec;
        }
        long rate = spec.rateBitsPerSecond();
        long share = rate == 0 ? 0 : Math.max(1, rate / n + (i == 0 ? rate % n : 0));
        return spec.toBuilder().streamId(spec.streamId() + i).rateBitsPerSecond(share).build();
    }

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
    public static ParallelEnds start(List<StreamEnd> ends, IntFunction<LongSupplier> peerSent,
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
    public boolean done() {
        return left.getCount() == 0;
    }

    /**
     * @param millis the longest to wait, ms
     * @return whether every end has returned or failed
     */
    public boolean await(long millis) {
        try {
            return left.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done();
        }
    }

    /** Ends every end's window as an interrupt does ({@link StreamEnd#interrupt()}): each returns what it counted. */
    public void interruptAll() {
        ends.forEach(StreamEnd::interrupt);
    }

    /** Aborts every end. */
    public void abortAll() {
        ends.forEach(StreamEnd::abort);
    }

    /** @return the first stream's failure by index (with the stream named when there are several), or null */
    public TransferException failure() {
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
    public long bytesSoFar() {
        return ends.stream().mapToLong(StreamEnd::bytesSoFar).sum();
    }

    /** @return messages of every stream so far */
    public long messagesSoFar() {
        return ends.stream().mapToLong(StreamEnd::messagesSoFar).sum();
    }

    /** @return every stream's counts, in order; call after {@link #done()} with no {@link #failure()} */
    public List<EndCounters> counters() {
        List<EndCounters> out = new ArrayList<>();
        for (EndCounters c : counters) {
            out.add(c);
        }
        return out;
    }
}
