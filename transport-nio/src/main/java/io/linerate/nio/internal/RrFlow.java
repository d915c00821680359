package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.spi.latency.RrConnection;
import io.linerate.core.spi.latency.RrFlowLoop;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.agrona.concurrent.IdleStrategy;

/**
 * One request/response flow on NIO, on core's flow loop ({@link RrFlowLoop}: the transactions, the
 * window, the open-loop schedule): a non-blocking connection waited on with a selector, or polled
 * with an Agrona {@link IdleStrategy} between polls (the spec's muxer), every wait bounded by the
 * timeout.
 */
public final class RrFlow extends RrFlowLoop {
    private final SocketAddress server;
    private final IdleStrategy idle;
    private final ByteBuffer request;
    private final ByteBuffer response;
    private Selector sel;
    private SocketChannel ch;

    /**
     * @param firstScheduled clock reading of the first open-loop send; ignored in closed loop
     */
    public RrFlow(int id, RrSpec spec, SocketAddress server, Clock clock, long firstScheduled) {
        super(id, spec, clock, firstScheduled);
        this.server = server;
        this.idle = spec.pollingIdle().map(io.linerate.core.Idle::newStrategy).orElse(null);
        this.request = ByteBuffer.allocateDirect(spec.requestBytes());
        this.response = ByteBuffer.allocateDirect(Math.min(spec.responseBytes(), 256 * 1024));
    }

    @Override
    protected void connect(long n) throws IOException {
        if (sel == null) {
            sel = Selector.open();
        }
        SocketChannel c = SocketChannel.open(Sockets.protocolFamily(spec.family()));
        try {
            c.setOption(StandardSocketOptions.TCP_NODELAY, spec.noDelay());
            c.configureBlocking(false);
            SelectionKey key = c.register(sel, 0);
            long deadline = System.nanoTime() + timeoutNanos;
            resetIdle();
            if (!c.connect(server)) {
                while (!c.finishConnect()) {
                    await(key, SelectionKey.OP_CONNECT, deadline, "connect", n);
                }
            }
            if (!connectedOnce()) {
                InetSocketAddress local = (InetSocketAddress) c.getLocalAddress();
                firstConnection(local.getAddress(), SocketMss.ofEnd(spec.family(), c));
                connectionForTcpInfo(RrConnection.byAddresses(local, (InetSocketAddress) c.getRemoteAddress()));
            }
            ch = c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * One transaction on the connection: writes the whole request, then reads the whole response,
     * each within the timeout.
     */
    @Override
    protected void transact(long n) throws IOException {
        SelectionKey key = ch.keyFor(sel);
        request.clear();
        long deadline = System.nanoTime() + timeoutNanos;
        resetIdle();
        while (request.hasRemaining()) {
            if (ch.write(request) == 0) {
                await(key, SelectionKey.OP_WRITE, deadline, "send its request", n);
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
                await(key, SelectionKey.OP_READ, deadline, "receive a response", n);
            }
            got += r;
        }
    }

    @Override
    protected void disconnect() throws IOException {
        ch.keyFor(sel).cancel();
        SocketChannel c = ch;
        ch = null;
        c.close();
        sel.selectNow();
    }

    @Override
    protected void release() {
        List<AutoCloseable> open = new ArrayList<>();
        if (ch != null) {
            open.add(ch);
        }
        if (sel != null) {
            open.add(sel);
        }
        Resources.closeQuietly(open);
        ch = null;
        sel = null;
    }

    private void await(SelectionKey key, int ops, long deadline, String what, long n) throws IOException {
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
}
