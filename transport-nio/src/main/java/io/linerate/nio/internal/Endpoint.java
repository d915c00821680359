package io.linerate.nio.internal;

import io.linerate.core.Idle;
import io.linerate.core.Muxer;
import io.linerate.core.spi.latency.MessageEnd;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.Channel;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.channels.Selector;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.agrona.concurrent.IdleStrategy;

/**
 * One end of a ping-pong link: a channel to read from and one to write to (the same channel for
 * sockets, two for pipes), and the way this end waits ({@link Muxer}; a polling muxer idles between
 * polls through an Agrona {@link IdleStrategy}, checking the deadline and the stop flag after
 * every idle step). Reads and writes return a
 * status instead of throwing for the expected outcomes (timeout, end of stream, stop), and
 * allocate nothing. A datagram end is connected to its peer, or sends to a target address with
 * send() and takes what arrives with receive() ({@link #openUnconnected}). Used by one thread,
 * except {@link #requestStop()}.
 */
public final class Endpoint implements MessageEnd {
    /** Longest single selector wait, so that a stop request is seen, ms. */
    static final long POLL_MILLIS = 10;

    private final ReadableByteChannel in;
    private final WritableByteChannel out;
    private final boolean datagram;
    private final Muxer muxer;
    private final IdleStrategy idle;
    private final Selector readSelector;
    private final Selector writeSelector;
    private final Watchdog watchdog;
    private final List<Channel> channels;
    /** Where an unconnected datagram end sends, or null for a connected end. */
    private final SocketAddress target;
    private volatile boolean stop;

    private Endpoint(ReadableByteChannel in, WritableByteChannel out, boolean datagram, Muxer muxer, IdleStrategy idle,
                     Selector readSelector, Selector writeSelector, Watchdog watchdog, List<Channel> channels,
                     SocketAddress target) {
        this.target = target;
        this.in = in;
        this.out = out;
        this.datagram = datagram;
        this.muxer = muxer;
        this.idle = idle;
        this.readSelector = readSelector;
        this.writeSelector = writeSelector;
        this.watchdog = watchdog;
        this.channels = channels;
    }

    /**
     * Configures the channels for {@code muxer} and makes the end. On failure nothing is left open
     * but the channels, which stay the caller's to close.
     *
     * @param name names the watchdog thread in blocking mode
     * @param idle how a polling muxer waits between polls, empty for the muxer's default; ignored by
     *     the other muxers
     * @param timeoutNanos the operation timeout, for the watchdog's check interval
     */
    public static <I extends SelectableChannel & ReadableByteChannel, O extends SelectableChannel & WritableByteChannel>
            Endpoint open(String name, I in, O out, boolean datagram, Muxer muxer, Optional<Idle> idle,
                          long timeoutNanos) throws IOException {
        return open(name, in, out, datagram, muxer, idle, timeoutNanos, null);
    }

    /**
     * As {@link #open}, for a datagram channel that is not connected: each write sends one datagram
     * to {@code target}, each read takes one datagram from any sender.
     *
     * @param target the peer's address (a multicast group's address and the peer's port, for multicast)
     */
    public static Endpoint openUnconnected(String name, DatagramChannel channel, SocketAddress target, Muxer muxer,
                                           Optional<Idle> idle, long timeoutNanos) throws IOException {
        return open(name, channel, channel, true, muxer, idle, timeoutNanos, java.util.Objects.requireNonNull(target));
    }

    private static <I extends SelectableChannel & ReadableByteChannel, O extends SelectableChannel & WritableByteChannel>
            Endpoint open(String name, I in, O out, boolean datagram, Muxer muxer, Optional<Idle> idle,
                          long timeoutNanos, SocketAddress target) throws IOException {
        List<Channel> channels = in == out ? List.of(in) : List.of(in, out);
        boolean blocking = muxer == Muxer.BLOCKING;
        in.configureBlocking(blocking);
        out.configureBlocking(blocking);
        Selector rs = null;
        Selector ws = null;
        try {
            if (muxer == Muxer.SELECTOR) {
                rs = Selector.open();
                ws = Selector.open();
                in.register(rs, SelectionKey.OP_READ);
                out.register(ws, SelectionKey.OP_WRITE);
            }
            Watchdog w = blocking ? new Watchdog(name + "-watchdog", channels, timeoutNanos) : null;
            IdleStrategy strategy = muxer.polls() ? idle.or(muxer::defaultIdle).orElseThrow().newStrategy() : null;
            return new Endpoint(in, out, datagram, muxer, strategy, rs, ws, w, channels, target);
        } catch (IOException | RuntimeException e) {
            List<AutoCloseable> opened = new ArrayList<>();
            if (rs != null) {
                opened.add(rs);
            }
            if (ws != null) {
                opened.add(ws);
            }
            Resources.closeQuietly(opened);
            throw e;
        }
    }

    /** @return the local address of the channel this end reads from (a socket's) */
    SocketAddress localAddress() throws IOException {
        return ((java.nio.channels.NetworkChannel) in).getLocalAddress();
    }

    /** @return how this end waits */
    public Muxer muxer() {
        return muxer;
    }

    /**
     * Reads into {@code buf}: one datagram, or for streams all of {@code buf}'s remaining bytes
     * ({@code whole}) or at least one byte.
     *
     * @param deadlineNanos {@link System#nanoTime()} reading to give up at, or {@link #NO_DEADLINE}
     * @return {@link #OK}, {@link #TIMEOUT}, {@link #EOF} or {@link #STOPPED}
     * @throws IOException when the channel fails
     */
    @Override
    public int read(ByteBuffer buf, long deadlineNanos, boolean whole) throws IOException {
        if (muxer == Muxer.BLOCKING) {
            return readBlocking(buf, deadlineNanos, whole);
        }
        if (idle != null) {
            idle.reset();
        }
        try {
            while (true) {
                int r = readOnce(buf);
                if (r < 0) {
                    return EOF;
                }
                if (r > 0 && (datagram || !whole || !buf.hasRemaining())) {
                    return OK;
                }
                if (r == 0) {
                    int s = idle(readSelector, deadlineNanos);
                    if (s != OK) {
                        return s;
                    }
                }
            }
        } catch (ClosedChannelException e) {
            if (stop) {
                return STOPPED;
            }
            throw e;
        }
    }

    private int readBlocking(ByteBuffer buf, long deadlineNanos, boolean whole) throws IOException {
        if (deadlineNanos != NO_DEADLINE) {
            watchdog.arm(deadlineNanos);
        }
        try {
            do {
                int r = readOnce(buf);
                if (r < 0) {
                    return EOF;
                }
                if (datagram) {
                    return OK;
                }
            } while (whole && buf.hasRemaining());
            return OK;
        } catch (ClosedChannelException e) {
            return closedStatus(e);
        } finally {
            watchdog.disarm();
        }
    }

    /**
     * Writes all of {@code buf}'s remaining bytes (one datagram for datagram channels).
     *
     * @return {@link #OK}, {@link #TIMEOUT} or {@link #STOPPED}
     * @throws IOException when the channel fails, such as a peer that closed
     */
    @Override
    public int write(ByteBuffer buf, long deadlineNanos) throws IOException {
        if (muxer == Muxer.BLOCKING) {
            watchdog.arm(deadlineNanos);
            try {
                while (buf.hasRemaining()) {
                    writeOnce(buf);
                }
                return OK;
            } catch (ClosedChannelException e) {
                return closedStatus(e);
            } finally {
                watchdog.disarm();
            }
        }
        if (idle != null) {
            idle.reset();
        }
        try {
            while (buf.hasRemaining()) {
                int w = writeOnce(buf);
                if (w == 0) {
                    int s = idle(writeSelector, deadlineNanos);
                    if (s != OK) {
                        return s;
                    }
                }
            }
            return OK;
        } catch (ClosedChannelException e) {
            if (stop) {
                return STOPPED;
            }
            throw e;
        }
    }

    /** @return bytes read: one datagram, part of a stream, 0 for nothing yet or -1 at the end of a stream */
    private int readOnce(ByteBuffer buf) throws IOException {
        if (target == null) {
            return in.read(buf);
        }
        int before = buf.position();
        // receive() on an unconnected channel: a datagram of 0 bytes reads as nothing, which the
        // ping-pong never sends (its messages are 1 byte or more)
        return ((DatagramChannel) in).receive(buf) == null ? 0 : buf.position() - before;
    }

    /** @return bytes written, 0 when the channel takes nothing now */
    private int writeOnce(ByteBuffer buf) throws IOException {
        return target == null ? out.write(buf) : ((DatagramChannel) out).send(buf, target);
    }

    private int closedStatus(ClosedChannelException e) throws ClosedChannelException {
        if (watchdog.fired()) {
            return TIMEOUT;
        }
        if (stop) {
            return STOPPED;
        }
        throw e;
    }

    /** One wait step of a non-blocking end: an idle step of a polling end, or a bounded select. */
    private int idle(Selector selector, long deadlineNanos) throws IOException {
        if (stop) {
            return STOPPED;
        }
        long now = System.nanoTime();
        if (deadlineNanos != NO_DEADLINE && now - deadlineNanos >= 0) {
            return TIMEOUT;
        }
        if (idle != null) {
            idle.idle();
        } else {
            long ms = deadlineNanos == NO_DEADLINE ? POLL_MILLIS
                    : Math.max(1, Math.min(POLL_MILLIS, (deadlineNanos - now + 999_999) / 1_000_000L));
            selector.select(Waits.IGNORE, ms);
        }
        return OK;
    }

    /**
     * Asks the owner's current and future waits to end with {@link #STOPPED}; closes the channels
     * so that a blocked call returns. Thread-safe.
     */
    /**
     * @return for a TCP socket end, a reader of its connection through a TCP_INFO source found at
     *     run time (the native layer's sock_diag), or why none can read it; empty for any other end
     */
    @Override
    public Optional<TcpInfoSources.Found> tcpInfo() {
        if (!(in instanceof SocketChannel ch)) {
            return Optional.empty();
        }
        try {
            if (!(ch.getLocalAddress() instanceof InetSocketAddress local)
                    || !(ch.getRemoteAddress() instanceof InetSocketAddress remote)) {
                return Optional.empty(); // a Unix stream socket, or one not connected
            }
            return Optional.of(TcpInfoSources.connection(local, remote));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of(new TcpInfoSources.Found(null, "the connection's addresses cannot be read: " + e.getMessage()));
        }
    }

    @Override
    public void requestStop() {
        stop = true;
        Resources.closeQuietly(channels);
    }

    /** Closes the watchdog, the selectors and the channels. */
    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>();
        if (watchdog != null) {
            all.add(watchdog);
        }
        if (readSelector != null) {
            all.add(readSelector);
            all.add(writeSelector);
        }
        all.addAll(channels);
        Resources.closeQuietly(all);
    }
}
