package io.linerate.peers.iperf2;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/**
 * A non-blocking TCP connection whose every wait is bounded: connect, read and write wait on a
 * selector for at most the given milliseconds. Closing releases the socket and the selector.
 */
final class TcpChannel implements Closeable {
    private final SocketChannel ch;
    private final Selector selector;
    private final SelectionKey key;

    private TcpChannel(SocketChannel ch) throws IOException {
        this.ch = ch;
        ch.configureBlocking(false);
        this.selector = Selector.open();
        this.key = ch.register(selector, 0);
    }

    /** Connects within {@code timeout}; on failure nothing stays open. */
    static TcpChannel connect(InetSocketAddress to, Duration timeout) throws IOException {
        SocketChannel s = SocketChannel.open();
        TcpChannel t = null;
        try {
            t = new TcpChannel(s);
            if (!s.connect(to)) {
                t.key.interestOps(SelectionKey.OP_CONNECT);
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!s.finishConnect()) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        throw new SocketTimeoutException("no connection to " + to + " within " + timeout.toMillis()
                                + " ms (the I/O timeout)");
                    }
                    t.selector.selectedKeys().clear();
                    t.selector.select(left);
                }
            }
            return t;
        } catch (IOException | RuntimeException e) {
            if (t != null) {
                t.close();
            } else {
                s.close();
            }
            throw e;
        }
    }

    /** Wraps a connection a server accepted. */
    static TcpChannel accepted(SocketChannel s) throws IOException {
        try {
            return new TcpChannel(s);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    SocketChannel channel() {
        return ch;
    }

    /** @return bytes written, 0 when the socket took none within {@code millis} */
    int writeSome(ByteBuffer b, long millis) throws IOException {
        int n = ch.write(b);
        if (n > 0) {
            return n;
        }
        await(SelectionKey.OP_WRITE, millis);
        return ch.write(b);
    }

    /** @return bytes read, 0 when none arrived within {@code millis}, -1 at the end of the stream */
    int readSome(ByteBuffer b, long millis) throws IOException {
        int n = ch.read(b);
        if (n != 0) {
            return n;
        }
        await(SelectionKey.OP_READ, millis);
        return ch.read(b);
    }

    private void await(int op, long millis) throws IOException {
        key.interestOps(op);
        selector.selectedKeys().clear();
        selector.select(Math.max(1, millis));
        key.interestOps(0);
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
