package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/**
 * One request/response flow on its own thread: a non-blocking connection waited on with a
 * selector, or polled with an Agrona {@link IdleStrategy} between polls (the spec's muxer), every
 * wait bounded by the timeout. Each transaction of the measured window goes into
 * the flow's own latency histogram with its exact min and max (allocation-free), which the
 * coordinator reads once the thread has ended. Closed loop: a transaction starts when the previous one ended. Open loop: the
 * k-th starts at {@code first + k·interval} and its latency is measured from that scheduled time,
 * so a slow response delays later requests and their latency shows it (coordinated-omission-free,
 * as wrk2 does); its window holds the transactions <i>due</i> inside it ({@link OpenLoopSchedule}),
 * and the flow counts the requests that left late and the largest lateness.
 */
public final class RrFlow implements AutoCloseable {
    private static final com.sun.management.ThreadMXBean ALLOCATION =
            ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean m
                    && m.isThreadAllocatedMemorySupported() && m.isThreadAllocatedMemoryEnabled() ? m : null;
    /** Park until this close to a scheduled send, then spin, ns. */
    private static final long SPIN_NANOS = 100_000;

    private final int id;
    private final RrSpec spec;
    private final SocketAddress server;
    private final Clock clock;
    private final long firstScheduled;
    private final ExactRangeHistogram latency = LatencyHistograms.create();
    private final Thread thread;
    private final long timeoutNanos;
    private final IdleStrategy idle;
    private volatile boolean stop;
    private volatile long completed;
    private volatile boolean measuring;
    private volatile long windowCompleted;
    private volatile Throwable failure;
    private volatile long windowAllocated = -1;
    private volatile InetAddress localAddress;
    private volatile Optional<TcpMss> mss = Optional.empty();
    private volatile RrTcpInfo.Connection connection;
    private volatile long windowOpen = Long.MAX_VALUE;
    private volatile long windowClose = Long.MAX_VALUE;
    private volatile long nextOpenDue;
    private long lateSends;
    private long maxLatenessNanos;

    /**
     * @param firstScheduled clock reading of the first open-loop send; ignored in closed loop
     */
    public RrFlow(int id, RrSpec spec, SocketAddress server, Clock clock, long firstScheduled) {
        this.id = id;
        this.spec = spec;
        this.server = server;
        this.clock = clock;
        this.firstScheduled = firstScheduled;
        this.nextOpenDue = firstScheduled;
        this.timeoutNanos = spec.timeout().toNanos();
        this.idle = spec.pollingIdle().map(io.linerate.core.Idle::newStrategy).orElse(null);
        this.thread = new Thread(this::run, "linerate-" + spec.testName() + "-" + id);
        this.thread.setDaemon(true);
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
     * Open loop: the measured window, by due time. A transaction belongs to it when its request was
     * due in [open, close), whenever it completes; {@link #measuring} is then not consulted. Call
     * before {@link #start()}.
     */
    public void openLoopWindow(long openNanos, long closeNanos) {
        windowOpen = openNanos;
        windowClose = closeNanos;
    }

    /**
     * @return open loop: the due time of the first request whose transaction has not completed
     *     (every earlier one has)
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

    /**
     * @return the MSS of the flow's first connection, read from the kernel ({@link SocketMss}) or
     *     derived saying why; empty before the first connect, or when neither can be had
     */
    Optional<TcpMss> mss() {
        return mss;
    }

    /**
     * @return the addresses of the flow's one connection (rr), for reads of its {@code TCP_INFO} by
     *     another thread; null before it connected, and always for crr (a connection per transaction)
     */
    RrTcpInfo.Connection connection() {
        return connection;
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
        ByteBuffer request = ByteBuffer.allocateDirect(spec.requestBytes());
        ByteBuffer response = ByteBuffer.allocateDirect(Math.min(spec.responseBytes(), 256 * 1024));
        long interval = spec.flowIntervalNanos();
        OpenLoopSchedule schedule = interval > 0 ? new OpenLoopSchedule(firstScheduled, interval) : null;
        long n = 0;
        long inWindow = 0;
        boolean wasMeasuring = false;
        long alloc0 = -1;
        SocketChannel ch = null;
        try (Selector sel = Selector.open()) {
            if (!spec.crr()) {
                ch = connect(sel, n);
            }
            while (!stop) {
                long start;
                if (schedule != null) {
                    if (!waitUntil(schedule.due())) {
                        break;
                    }
                    start = schedule.leave(clock.nanoTime());
                } else {
                    start = clock.nanoTime();
                }
                if (spec.crr()) {
                    ch = connect(sel, n);
                }
                SelectionKey key = ch.keyFor(sel);
                transact(sel, key, ch, request, response, n);
                if (spec.crr()) {
                    key.cancel();
                    ch.close();
                    ch = null;
                    sel.selectNow();
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
            if (ch != null) {
                Resources.closeQuietly(java.util.List.of(ch));
            }
        }
    }

    /**
     * One transaction on {@code ch}: writes the whole request, then reads the whole response, each
     * within the timeout.
     *
     * @param n transactions completed before this one, for messages
     */
    private void transact(Selector sel, SelectionKey key, SocketChannel ch, ByteBuffer request, ByteBuffer response, long n)
            throws IOException {
        request.clear();
        long deadline = System.nanoTime() + timeoutNanos;
        resetIdle();
        while (request.hasRemaining()) {
            if (ch.write(request) == 0) {
                await(sel, key, SelectionKey.OP_WRITE, deadline, "send its request", n);
            }
        }
        int got = 0;
        deadline = System.nanoTime() + timeoutNanos;
        resetIdle();
        while (got < spec.responseBytes()) {
            response.clear().limit(Math.min(response.capacity(), spec.responseBytes() - got));
            int r = ch.read(response);
            if (r < 0) {
                throw new IOException(String.format(Locale.ROOT,
                        "flow %d: the server closed the connection after %d transactions", id, n));
            }
            if (r == 0) {
                await(sel, key, SelectionKey.OP_READ, deadline, "receive a response", n);
            }
            got += r;
        }
    }

    private SocketChannel connect(Selector sel, long n) throws IOException {
        SocketChannel ch = SocketChannel.open(Sockets.protocolFamily(spec.family()));
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, spec.noDelay());
            ch.configureBlocking(false);
            SelectionKey key = ch.register(sel, 0);
            long deadline = System.nanoTime() + timeoutNanos;
            resetIdle();
            if (!ch.connect(server)) {
                while (!ch.finishConnect()) {
                    await(sel, key, SelectionKey.OP_CONNECT, deadline, "connect", n);
                }
            }
            if (localAddress == null) {
                localAddress = ((InetSocketAddress) ch.getLocalAddress()).getAddress();
                mss = SocketMss.ofEnd(spec.family(), ch);
                if (!spec.crr()) {
                    connection = new RrTcpInfo.Connection((InetSocketAddress) ch.getLocalAddress(),
                            (InetSocketAddress) ch.getRemoteAddress());
                }
            }
            return ch;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private void await(Selector sel, SelectionKey key, int ops, long deadline, String what, long n) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new IOException(String.format(Locale.ROOT,
                    "flow %d could not %s within the timeout of %d ms after %d transactions", id, what,
                    timeoutNanos / 1_000_000L, n));
        }
        if (idle != null) {
            idle.idle();
            return;
        }
        if (key.interestOps() != ops) {
            key.interestOps(ops);
        }
        sel.select(Waits.IGNORE, Math.max(1, Math.min(Endpoint.POLL_MILLIS, left / 1_000_000L)));
    }

    private void resetIdle() {
        if (idle != null) {
            idle.reset();
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
