package io.linerate.peers.iperf3;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A non-blocking TCP connection whose every wait is bounded: a connect, a write or a read that
 * makes no progress for the I/O timeout throws {@link SocketTimeoutException}. One thread at a time.
 */
final class BoundedChannel implements Closeable {
    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    /** The key's interest set, as last set by a wait. */
    private int interest;
    private final long timeoutMillis;
    /** The other end, for messages: "the server" on a client's channel, "the client" on a server's. */
    private final String farEnd;
    private volatile boolean cancelled;

    private BoundedChannel(SocketChannel channel, Selector selector, long timeoutMillis, String farEnd) throws IOException {
        this.channel = channel;
        this.selector = selector;
        this.key = channel.register(selector, 0);
        this.timeoutMillis = timeoutMillis;
        this.farEnd = farEnd;
    }

    /**
     * @param to the server's address
     * @param timeout bound on the connect and every later wait
     * @return the connected channel
     * @throws IOException when the connect fails or takes longer than the timeout
     */
    static BoundedChannel connect(InetSocketAddress to, Duration timeout) throws IOException {
        SocketChannel ch = SocketChannel.open();
        Selector sel = null;
        try {
            ch.configureBlocking(false);
            sel = Selector.open();
            BoundedChannel c = new BoundedChannel(ch, sel, Math.max(1, timeout.toMillis()), "the server");
            if (!ch.connect(to)) {
                c.await(SelectionKey.OP_CONNECT, "connect to " + to);
                ch.finishConnect();
            }
            return c;
        } catch (IOException | RuntimeException e) {
            ch.close();
            if (sel != null) {
                sel.close();
            }
            throw e;
        }
    }

    /**
     * Wraps a connection the server accepted.
     *
     * @param accepted a connected channel; made non-blocking here
     * @param timeout bound on every later wait
     * @throws IOException when the channel cannot be made non-blocking (it is then closed)
     */
    static BoundedChannel accepted(SocketChannel accepted, Duration timeout) throws IOException {
        Selector sel = null;
        try {
            accepted.configureBlocking(false);
            sel = Selector.open();
            return new BoundedChannel(accepted, sel, Math.max(1, timeout.toMillis()), "the client");
        } catch (IOException | RuntimeException e) {
            accepted.close();
            if (sel != null) {
                sel.close();
            }
            throw e;
        }
    }

    SocketChannel channel() {
        return channel;
    }

    /** Writes all of {@code b}; throws when no byte could be written for the timeout. */
    void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (channel.write(b) == 0) {
                await(SelectionKey.OP_WRITE, "write");
            }
        }
    }

    /**
     * Writes what the socket takes now, waiting at most {@code millis} for room.
     *
     * @return bytes written, 0 when there was no room within {@code millis}
     */
    int writeSome(ByteBuffer b, long millis) throws IOException {
        return writeSome(b, millis, false);
    }

    /**
     * Writes what the socket takes, waiting at most {@code millis} for room first when
     * {@code full}: after a write that left bytes behind, the send buffer is full, and writing
     * again at once would only be refused.
     *
     * @return bytes written, 0 when there was no room within {@code millis}
     */
    int writeSome(ByteBuffer b, long millis, boolean full) throws IOException {
        if (full && millis > 0 && !ready(SelectionKey.OP_WRITE, millis)) {
            return 0;
        }
        int n = channel.write(b);
        if (n == 0 && millis > 0 && ready(SelectionKey.OP_WRITE, millis)) {
            n = channel.write(b);
        }
        return n;
    }

    /** Fills {@code b}; throws {@link java.io.EOFException} at end of stream, or on the timeout. */
    void readFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            int n = channel.read(b);
            if (n < 0) {
                throw new java.io.EOFException(farEnd + " closed the connection");
            }
            if (n == 0) {
                await(SelectionKey.OP_READ, "read");
            }
        }
    }

    /**
     * Reads what is there, waiting at most {@code millis} for some.
     *
     * @return bytes read, 0 when none came within {@code millis}, -1 at end of stream
     */
    int readSome(ByteBuffer b, long millis) throws IOException {
        int n = channel.read(b);
        if (n == 0 && millis > 0 && ready(SelectionKey.OP_READ, millis)) {
            n = channel.read(b);
        }
        return n;
    }

    /** @return whether the channel became readable within {@code millis} (at least 1) */
    boolean waitReadable(long millis) throws IOException {
        return ready(SelectionKey.OP_READ, millis);
    }

    private void await(int op, String what) throws IOException {
        if (!ready(op, timeoutMillis)) {
            throw new SocketTimeoutException(what + " made no progress for " + timeoutMillis + " ms (the I/O timeout)");
        }
    }

    private boolean ready(int op, long millis) throws IOException {
        if (cancelled) {
            throw new Cancelled();
        }
        try {
            if (interest != op) {
                // kept between waits: a sender waits for OP_WRITE again and again, and each change is a system call
                key.interestOps(op);
                interest = op;
            }
            selector.selectedKeys().clear();
            int n = selector.select(Math.max(1, millis));
            selector.selectedKeys().clear();
            if (cancelled) {
                throw new Cancelled();
            }
            return n > 0;
        } catch (CancelledKeyException | ClosedSelectorException e) {
            throw new ClosedChannelException();
        }
    }

    /**
     * Ends every wait on this channel, now and later, with {@link Cancelled}, from any thread; the
     * connection stays open, so a last message can still be written without waiting ({@link #writeNow}).
     */
    void cancel() {
        cancelled = true;
        try {
            selector.wakeup();
        } catch (ClosedSelectorException ignored) {
            // closed already: no wait to end
        }
    }

    /**
     * Writes {@code b} only as far as the socket takes it without waiting.
     *
     * @return whether all of {@code b} was written
     */
    boolean writeNow(ByteBuffer b) {
        try {
            channel.write(b);
            return !b.hasRemaining();
        } catch (IOException e) {
            return false;
        }
    }

    /** A wait ended by {@link #cancel}. */
    static final class Cancelled extends IOException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled: the server is stopping");
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }
}
