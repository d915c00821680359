package io.linerate.core.spi.latency;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * One request/response flow on its own thread, as netperf's TCP_RR and TCP_CRR drive it: the loop
 * of transactions, the measured window and the latency histogram, with the socket work left to a
 * transport ({@link #connect}, {@link #transact}, {@link #disconnect}, {@link #release}). Each
 * transaction of the measured window goes into the flow's own latency histogram (ns) with its exact
 * min and max, allocation-free, which the coordinator ({@link RrFlows}) reads once the thread has
 * ended. Closed loop: a transaction starts when the previous one ended. Open loop: the k-th starts
 * at {@code first + k·interval} and its latency is measured from that scheduled time, so a slow
 * response delays later requests and their latency shows it (coordinated-omission-free, as wrk2
 * does); its window holds the transactions <i>due</i> inside it ({@link OpenLoopSchedule}), and
 * the flow counts the requests that left late and the largest lateness. With {@link RrSpec#crr()}
 * every transaction connects first and disconnects after (TCP_CRR). The loop allocates nothing
 * per transaction; the hooks must not either.
 */
public abstract class RrFlowLoop implements AutoCloseable {
    private static final com.sun.management.ThreadMXBean ALLOCATION =
            ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean m
                    && m.isThreadAllocatedMemorySupported() && m.isThreadAllocatedMemoryEnabled() ? m : null;
    /** Park until this close to a scheduled send, then spin, ns. */
    private static final long SPIN_NANOS = 100_000;

    /** The flow's number, 0 up, for messages. */
    protected final int id;
    /** What the flow runs. */
    protected final RrSpec spec;
    /** The longest wait of one step of a transaction, ns. */
    protected final long timeoutNanos;
    private final Clock clock;
    private final long firstScheduled;
    private final ExactRangeHistogram latency = LatencyHistograms.create();
    private final Thread thread;
    private volatile boolean stop;
    private volatile long completed;
    private volatile boolean measuring;
    private volatile long windowCompleted;
    private volatile Throwable failure;
    private volatile long windowAllocated = -1;
    private volatile boolean connectedOnce;
    private volatile InetAddress localAddress;
    private volatile Optional<TcpMss> mss = Optional.empty();
    private volatile RrConnection connection;
    private volatile long windowOpen = Long.MAX_VALUE;
    private volatile long windowClose = Long.MAX_VALUE;
    private volatile long nextOpenDue;
    private long lateSends;
    private long maxLatenessNanos;

    /**
     * @param id the flow's number, 0 up
     * @param spec what to run
     * @param clock times every transaction
     * @param firstScheduled clock reading of the first open-loop send, ns; ignored in closed loop
     */
    protected RrFlowLoop(int id, RrSpec spec, Clock clock, long firstScheduled) {
        this.id = id;
        this.spec = spec;
        this.clock = clock;
        this.firstScheduled = firstScheduled;
        this.nextOpenDue = firstScheduled;
        this.timeoutNanos = spec.timeout().toNanos();
        this.thread = new Thread(this::run, "linerate-" + spec.testName() + "-" + id);
        this.thread.setDaemon(true);
    }

    /**
     * Opens a connection to the server, within the timeout; the first one calls
     * {@link #firstConnection}.
     *
     * @param n transactions completed before, for messages
     * @throws IOException naming the flow, what failed and {@code n}
     */
    protected abstract void connect(long n) throws IOException;

    /**
     * One transaction on the open connection: writes the whole request of {@link RrSpec#requestBytes()},
     * then reads the whole response of {@link RrSpec#responseBytes()}, each within the timeout.
     *
     * @param n transactions completed before this one, for messages
     * @throws IOException naming the flow, what failed and {@code n}
     */
    protected abstract void transact(long n) throws IOException;

    /** Closes the open connection (TCP_CRR, after each transaction). @throws IOException when close fails */
    protected abstract void disconnect() throws IOException;

    /** Releases whatever is still open, quietly; called once as the thread ends, on every path. */
    protected abstract void release();

    /**
     * Records the first connection's facts, for the report's MSS note.
     *
     * @param local its local address, which the route to the server chose; null when unknown
     * @param readMss its MSS as read (or derived, saying why); empty when neither could be had
     */
    protected final void firstConnection(InetAddress local, Optional<TcpMss> readMss) {
        if (!connectedOnce) {
            mss = readMss;
            localAddress = local;
            connectedOnce = true;
        }
    }

    /**
     * Offers the flow's one connection (TCP_RR only) for the coordinator's {@code TCP_INFO} reads
     * ({@link RrTcpInfo}) at the window's edges; call once, when it is connected.
     */
    protected final void connectionForTcpInfo(RrConnection c) {
        if (!spec.crr()) {
            connection = c;
        }
    }

    /** @return the flow's one connection for {@code TCP_INFO} reads; null before it connected, and always for crr */
    public RrConnection connection() {
        return connection;
    }

    /** @return whether {@link #firstConnection} was called */
    protected final boolean connectedOnce() {
        return connectedOnce;
    }

    /** @return whether the flow was asked to stop */
    protected final boolean stopping() {
        return stop;
    }

    /** Starts the thread. */
    public void start() {
        thread.start();
    }

    /** @return transactions completed so far */
    public long completed() {
        return completed;
    }

    /**
     * Opens or closes the measured window for this flow: only transactions that complete while it
     * is open are counted in {@link #windowCompleted()} and recorded in {@link #windowLatency()}, so
     * the count and the latency distribution always hold the same transactions.
     */
    public void measuring(boolean on) {
        measuring = on;
    }

    /**
     * Open loop: the measured window, by due time (clock readings, ns). A transaction belongs to it
     * when its request was due in [open, close), whenever it completes; {@link #measuring} is then
     * not consulted. Call before {@link #start()}.
     */
    public void openLoopWindow(long openNanos, long closeNanos) {
        windowOpen = openNanos;
        windowClose = closeNanos;
    }

    /**
     * @return open loop: the due time of the first request whose transaction has not completed
     *     (every earlier one has), ns
     */
    public long nextOpenDue() {
        return nextOpenDue;
    }

    /** @return open loop: requests that left an interval or more after they were due; read after the thread ended */
    public long lateSends() {
        return lateSends;
    }

    /** @return open loop: the largest time a request left after it was due, ns; read after the thread ended */
    public long maxLatenessNanos() {
        return maxLatenessNanos;
    }

    /** @return transactions completed while the window was open */
    public long windowCompleted() {
        return windowCompleted;
    }

    /**
     * @return heap bytes this flow's thread allocated from the end of its first transaction in the
     *     measured window to the end of its first after it (or its last, when it stopped first); -1
     *     when unknown. Read after the thread has ended.
     */
    public long windowAllocatedBytes() {
        return windowAllocated;
    }

    /**
     * @return the local address of the flow's first connection, which the route to the server chose
     *     (its interface's MTU is the path's, as this host sees it); null before the first connect
     */
    public InetAddress localAddress() {
        return localAddress;
    }

    /** @return the MSS of the flow's first connection, read or derived saying why; empty before the first connect */
    public Optional<TcpMss> mss() {
        return mss;
    }

    /** @return why the flow ended early, or null */
    public Throwable failure() {
        return failure;
    }

    /** @return whether the thread has ended */
    public boolean ended() {
        return !thread.isAlive();
    }

    /**
     * @return a copy of the latency histogram of the window's transactions, ns
     * @throws IllegalStateException if the thread is still running (it alone records into it)
     */
    public ExactRangeHistogram windowLatency() {
        if (thread.isAlive()) {
            throw new IllegalStateException("flow " + id + " is still running");
        }
        return latency.copy();
    }

    /**
     * Waits for the flow to end by itself (it does only on failure), without asking it to stop.
     *
     * @param millis longest wait, ms
     * @return whether it has ended
     * @throws InterruptedException when this thread is interrupted while waiting
     */
    public boolean awaitEnd(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive();
    }

    /** Asks the flow to end after its current transaction. */
    public void requestStop() {
        stop = true;
    }

    private void run() {
        long interval = spec.flowIntervalNanos();
        OpenLoopSchedule schedule = interval > 0 ? new OpenLoopSchedule(firstScheduled, interval) : null;
        long n = 0;
        long inWindow = 0;
        boolean wasMeasuring = false;
        long alloc0 = -1;
        try {
            if (!spec.crr()) {
                connect(n);
            }
            while (!stop) {
                long start;
                if (schedule != null) {
                    if (!waitUntil(schedule.due())) {
                        break;
                    }
                    // late sends and lateness count in the window only, as the report's note says
                    schedule.countLatenessIn(windowOpen, windowClose);
                    start = schedule.leave(clock.nanoTime());
                } else {
                    start = clock.nanoTime();
                }
                if (spec.crr()) {
                    connect(n);
                }
                transact(n);
                if (spec.crr()) {
                    disconnect();
                }
                long end = clock.nanoTime();
                boolean m = schedule == null ? measuring : OpenLoopSchedule.inWindow(start, windowOpen, windowClose);
                if (schedule != null) {
                    nextOpenDue = schedule.due();
                }
                if (m) {
                    latency.record(end - start);
                    windowCompleted = ++inWindow;
                }
                completed = ++n;
                if (m != wasMeasuring) {
                    // a window edge, as this flow sees it: the thread's allocation counter at both
                    if (m) {
                        alloc0 = allocated();
                    } else {
                        windowAllocated = between(alloc0, allocated());
                    }
                    wasMeasuring = m;
                }
            }
            if (wasMeasuring) {
                windowAllocated = between(alloc0, allocated());
            }
        } catch (Throwable e) {
            failure = e;
        } finally {
            if (schedule != null) {
                lateSends = schedule.lateSends();
                maxLatenessNanos = schedule.maxLatenessNanos();
            }
            release();
        }
    }

    private static long allocated() {
        return ALLOCATION == null ? -1 : ALLOCATION.getCurrentThreadAllocatedBytes();
    }

    private static long between(long a, long b) {
        return a < 0 || b < 0 ? -1 : b - a;
    }

    /** @return false when stopped before the time */
    private boolean waitUntil(long when) {
        while (!stop) {
            long left = when - clock.nanoTime();
            if (left <= 0) {
                return true;
            }
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(Math.min(left - SPIN_NANOS, 10_000_000L));
            } else {
                Thread.onSpinWait();
            }
        }
        return false;
    }

    /**
     * Stops the flow and waits for it: a transaction under way ends within the timeout, so the wait
     * is bounded by twice the timeout plus one second.
     */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join(2 * timeoutNanos / 1_000_000L + 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
