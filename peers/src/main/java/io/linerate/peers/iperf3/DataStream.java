package io.linerate.peers.iperf3;

import io.linerate.core.Clock;
import io.linerate.core.PacingWait;
import io.linerate.core.spi.DatagramWait;
import io.linerate.core.spi.Pacer;
import io.linerate.core.spi.Rfc3550Jitter;
import io.linerate.core.spi.SequenceTracker;
import java.io.Closeable;
import java.io.IOException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;

/**
 * One iperf3 data stream on its own thread: TCP or UDP, sending (linerate is the sender) or
 * receiving ({@code --reverse}). A sender stops at its byte or datagram budget or when told;
 * a receiver reads until told, then drains what is already there (UDP) or reads to the server's
 * close (TCP). Counters are read by the controlling thread after {@link #join}; while the stream
 * runs, a server's test reads its volatile bytes and datagrams, and the loss and jitter it
 * publishes ({@link UdpSeen}), for its interval lines. The per-datagram path allocates nothing and
 * never logs.
 */
final class DataStream implements Runnable, Closeable {
    private static final long POLL_MILLIS = 10;

    final int id;
    private final boolean udp;
    private final boolean sender;
    private final boolean counters64;
    private final BoundedChannel tcp;
    private final DatagramChannel datagrams;
    private final Selector udpSelector;
    private final ByteBuffer buf;
    private final long budgetBytes;
    private final long budgetMessages;
    private final Pacer pacer;
    private final long tickNanos;
    private final long ioTimeoutNanos;
    private final Clock clock = Clock.system();
    private final long epochMicrosBase;
    private Thread thread;

    private volatile boolean stop;
    private volatile boolean ending;
    /**
     * A server's TCP receiver: told to stop, it returns once nothing is readable; the client's close
     * ends it at any time. A client's receiver reads to the server's close, which must follow TEST_END.
     */
    private boolean drainOnStop;
    private volatile Throwable failure;
    volatile long bytes;
    volatile long messages;
    private long startNanos;
    private long endNanos;
    final SequenceTracker tracker = new SequenceTracker();
    /** Restarted when the omit period ends. */
    Rfc3550Jitter jitter = new Rfc3550Jitter();
    /** The counts when the omit period ended, left out of the server's results. */
    final OmitBaseline omitted = new OmitBaseline();
    private final java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
    /** A receiving UDP stream's loss and jitter, published on its thread for the server's interval lines. */
    final UdpSeen seen = new UdpSeen();
    /** For a TCP sender after the session: whether the server read all it was sent (null: unknown). */
    Boolean serverReadAll;

    DataStream(int id, boolean udp, boolean sender, boolean counters64, BoundedChannel tcp,
                       DatagramChannel datagrams, Selector udpSelector, int payload, long budgetBytes,
                       long budgetMessages, Pace pace, Duration ioTimeout) {
        this.id = id;
        this.udp = udp;
        this.sender = sender;
        this.counters64 = counters64;
        this.tcp = tcp;
        this.datagrams = datagrams;
        this.udpSelector = udpSelector;
        this.buf = ByteBuffer.allocateDirect(udp ? 65536 : Math.max(payload, 65536));
        this.budgetBytes = budgetBytes;
        this.budgetMessages = budgetMessages;
        this.pacer = new Pacer(pace.bitsPerSecond());
        this.tickNanos = PacingWait.tickFor(pace.tickNanos(), pace.bitsPerSecond(), 8L * payload);
        this.ioTimeoutNanos = ioTimeout.toNanos();
        this.epochMicrosBase = System.currentTimeMillis() * 1000L - System.nanoTime() / 1000L;
        buf.limit(sender ? payload : buf.capacity());
    }

    /**
     * Wraps a TCP data connection a server accepted (its cookie already read).
     *
     * @param sender whether this end sends; a receiver told to {@link #stop} drains what is
     *     readable and returns, without waiting for the client's close
     */
    static DataStream acceptedTcp(int id, BoundedChannel ch, boolean sender, int payload, long budgetBytes,
                                  long budgetMessages, Pace pace, Duration ioTimeout) {
        DataStream s = new DataStream(id, false, sender, false, ch, null, null, payload, budgetBytes, budgetMessages, pace,
                ioTimeout);
        s.drainOnStop = true;
        return s;
    }

    /**
     * Wraps a UDP socket a server connected to its client (the connect reply already sent).
     *
     * @throws IOException when the channel cannot be made non-blocking or a selector opened (the
     *     channel is then closed)
     */
    static DataStream acceptedUdp(int id, DatagramChannel ch, boolean sender, boolean counters64, int payload,
                                  long budgetBytes, long budgetMessages, Pace pace, Duration ioTimeout) throws IOException {
        Selector sel = null;
        try {
            ch.configureBlocking(false);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
            return new DataStream(id, true, sender, counters64, null, ch, sel, payload, budgetBytes, budgetMessages, pace,
                    ioTimeout);
        } catch (IOException | RuntimeException e) {
            ch.close();
            if (sel != null) {
                sel.close();
            }
            throw e;
        }
    }

    boolean sender() {
        return sender;
    }

    void start(String name) {
        thread = new Thread(this, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** @return whether this stream's thread entered its loop, waiting at most {@code timeoutNanos} ns */
    boolean awaitRunning(long timeoutNanos) throws InterruptedException {
        return running.await(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** Asks a sender to stop, or a receiver to drain and stop. */
    void stop() {
        stop = true;
    }

    /** Tells a receiver that TEST_END went out, so the server closing its end is expected. */
    void ending() {
        ending = true;
    }

    boolean finished() {
        return thread != null && !thread.isAlive();
    }

    /** @return true when the thread ended within {@code millis} */
    boolean join(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive();
    }

    Throwable failure() {
        return failure;
    }

    /** @return ns from this stream's first send or read, or the omit period's end, to its last */
    long activeNanos() {
        return Math.max(0, endNanos - Math.max(startNanos, omitted.atNanos));
    }

    @Override
    public void run() {
        startNanos = clock.nanoTime();
        running.countDown();
        try {
            if (sender) {
                if (udp) {
                    sendUdp();
                } else {
                    sendTcp();
                }
            } else if (udp) {
                try {
                    receiveUdp();
                } finally {
                    seen.publish(tracker, jitter, clock.nanoTime(), true);
                }
            } else {
                receiveTcp();
            }
        } catch (PortUnreachableException e) {
            failure = new IOException("the server's UDP port refused datagrams (ICMP port unreachable): the server is gone", e);
        } catch (IOException | RuntimeException e) {
            failure = e;
        } finally {
            if (endNanos == 0) {
                endNanos = clock.nanoTime();
            }
        }
    }

    private boolean budgetLeft() {
        return (budgetBytes == 0 || bytes < budgetBytes) && (budgetMessages == 0 || messages < budgetMessages);
    }

    private void sendTcp() throws IOException {
        int payload = buf.limit();
        PacingWait wait = new PacingWait(clock, tickNanos);
        pacer.start(startNanos);
        long lastProgress = startNanos;
        while (!stop && budgetLeft()) {
            long now = clock.nanoTime();
            omitted.check(this, now);
            long w = pacer.nanosUntilNext(bytes + payload, now);
            if (w > 0) {
                wait.step(now, w);
                continue;
            }
            buf.clear().limit(budgetBytes == 0 ? payload : (int) Math.min(payload, budgetBytes - bytes));
            boolean full = false;
            while (buf.hasRemaining() && !stop) {
                int n = tcp.writeSome(buf, POLL_MILLIS, full);
                full = n > 0 && buf.hasRemaining();
                if (n > 0) {
                    bytes += n;
                    lastProgress = clock.nanoTime();
                } else if (clock.nanoTime() - lastProgress > ioTimeoutNanos) {
                    throw new SocketTimeoutException("the server took no data for " + ioTimeoutNanos / 1_000_000
                            + " ms (the I/O timeout)");
                }
            }
            messages++;
        }
        endNanos = clock.nanoTime();
        tcp.channel().shutdownOutput();
    }

    private void sendUdp() throws IOException {
        int payload = buf.limit();
        PacingWait wait = new PacingWait(clock, tickNanos);
        pacer.start(startNanos);
        long lastProgress = startNanos;
        long seq = 1;
        while (!stop && budgetLeft()) {
            long now = clock.nanoTime();
            omitted.check(this, now);
            long w = pacer.nanosUntilNext(bytes + payload, now);
            if (w > 0) {
                wait.step(now, w);
                continue;
            }
            Iperf3DatagramHeader.write(buf, epochMicrosBase + now / 1000L, seq, counters64);
            buf.position(0).limit(payload);
            if (datagrams.write(buf) > 0) {
                seq++;
                messages++;
                bytes += payload;
                lastProgress = now;
            } else {
                if (now - lastProgress > ioTimeoutNanos) {
                    throw new SocketTimeoutException("no datagram could be sent for " + ioTimeoutNanos / 1_000_000
                            + " ms (the I/O timeout)");
                }
                udpSelector.selectedKeys().clear();
                udpSelector.selectNow();
                Thread.onSpinWait();
            }
        }
        endNanos = clock.nanoTime();
    }

    private void receiveUdp() throws IOException {
        int header = Iperf3DatagramHeader.bytes(counters64);
        long lastData = startNanos;
        DatagramWait wait = new DatagramWait(udpSelector);
        while (true) {
            buf.clear();
            int n = datagrams.read(buf);
            long now = clock.nanoTime();
            omitted.check(this, now);
            if (n >= header) {
                bytes += n;
                messages++;
                lastData = now;
                endNanos = now;
                // a sequence number iperf3 never sends (0, or a negative 64-bit one) is -1: ignored
                tracker.onArrival(Iperf3DatagramHeader.index(buf, counters64));
                jitter.onArrival(Iperf3DatagramHeader.sendMicros(buf) * 1000L, (epochMicrosBase * 1000L) + now);
                seen.publish(tracker, jitter, now, false);
                wait.read();
                continue;
            }
            if (n > 0) {
                // shorter than a data header: a re-sent or duplicated 4-byte connect message or reply, not data
                continue;
            }
            if (stop) {
                return; // drained: nothing more is waiting
            }
            seen.publish(tracker, jitter, now, false);
            if (!ending && now - lastData > ioTimeoutNanos) {
                throw new SocketTimeoutException("no datagram from the server for " + ioTimeoutNanos / 1_000_000
                        + " ms (the I/O timeout)");
            }
            wait.await(POLL_MILLIS);
        }
    }

    private void receiveTcp() throws IOException {
        long lastData = startNanos;
        while (true) {
            buf.clear();
            int n = tcp.readSome(buf, POLL_MILLIS);
            long now = clock.nanoTime();
            omitted.check(this, now);
            if (n > 0) {
                bytes += n;
                lastData = now;
                endNanos = now;
            } else if (n == 0 && stop && drainOnStop) {
                return; // told to stop and nothing more is readable: the rest was never here
            } else if (n < 0) {
                // a server's stream: the client's FIN ends what it sends (iperf3's client may close before
                // TEST_END, and linerate's does with a TCP drain); a client's: only the server's close after TEST_END
                if (!ending && !drainOnStop) {
                    throw new java.io.EOFException("the server closed the data connection before the test ended");
                }
                return; // the server closed after TEST_END: everything it sent is here
            } else if (now - lastData > ioTimeoutNanos) {
                throw new SocketTimeoutException("no data from the server for " + ioTimeoutNanos / 1_000_000
                        + " ms (the I/O timeout)");
            }
        }
    }

    /**
     * For a TCP sender after the results: reads the server's close. A clean end of stream means the
     * server had read every byte; a reset means it closed with bytes unread (Linux resets a
     * connection closed with unread data).
     */
    void checkServerReadAll(long millis) {
        if (udp || !sender) {
            return;
        }
        try {
            buf.clear();
            int n = tcp.readSome(buf, millis);
            serverReadAll = n < 0 ? Boolean.TRUE : null;
        } catch (IOException e) {
            serverReadAll = Boolean.FALSE;
        }
    }

    @Override
    public void close() {
        stop = true;
        if (tcp != null) {
            tcp.close();
        }
        if (datagrams != null) {
            quietly(datagrams);
            quietly(udpSelector);
        }
    }

    private static void quietly(Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }
}
