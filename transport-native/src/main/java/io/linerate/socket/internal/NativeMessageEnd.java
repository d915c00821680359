package io.linerate.socket.internal;

import io.linerate.core.spi.latency.MessageEnd;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedByInterruptException;
import java.util.Optional;

/**
 * One ping-pong end on a native socket: a TCP stream, or a UDP or Unix-domain datagram socket
 * (connected, or sending to its {@link NativeSocket#target}). The socket is made blocking with a
 * receive and send timeout of {@value #SLICE_MILLIS} ms (SO_RCVTIMEO, SO_SNDTIMEO), so that a read
 * waits inside one recv(2), as sfnt-pingpong's and sockperf's blocking ends do, rather than in a
 * failed try, a poll(2) and a second try: two system calls fewer per message. After each timeout
 * the deadline, the stop flag and this thread's interrupt are checked. Data moves by the direct
 * buffer's address, so the per-message path allocates nothing. An interrupt of the waiting thread
 * ends the call with {@link ClosedByInterruptException}, as an interrupted NIO channel does.
 *
 * <p>The end {@linkplain #stampsCalls() stamps its calls}: the native call reads the clock right
 * before a message's first send(2) and right after each recv(2) that returns data, so that a round
 * trip is timed around the system calls, as sockperf times its own; {@link #echo} receives and
 * answers in one native call. Used by one thread, except
 * {@link #requestStop()}.
 */
final class NativeMessageEnd implements MessageEnd {
    /** Longest single wait (a receive's SO_RCVTIMEO, a send's poll(2)), so that a stop request or an interrupt is seen, ms. */
    static final int SLICE_MILLIS = 10;
    /** Longest wait in {@link #close()} for a call on another thread to see the stop, ns. */
    private static final long CLOSE_WAIT_NANOS = 1_000_000_000L;

    private final NativeSocket socket;
    private final boolean datagram;
    private volatile boolean stop;
    /** Whether a thread is inside {@link #read} or {@link #write}, so that {@link #close()} does not pull the descriptor from under it. */
    private volatile boolean busy;
    /**
     * The last buffer read into and the last written from, with their native addresses: each the
     * same buffer every message, looked up once. Apart, so that a reading and a writing thread
     * never share one.
     */
    private final BufferAddress readInto = new BufferAddress();
    private final BufferAddress writeFrom = new BufferAddress();
    /** The native calls' time stamps, ns: at {@value #SEND_STAMP} the last message's send, at {@value #RECEIVE_STAMP} the last receive. */
    private final ByteBuffer stamps = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
    private final long stampsAddress = NativeSocket.address(stamps);
    private static final int SEND_STAMP = 0;
    private static final int RECEIVE_STAMP = 8;

    /**
     * @param socket a connected socket, or a datagram socket with its target; this end makes it blocking
     * @param datagram whether it carries datagrams
     * @throws NativeSocketException naming the call (fcntl, setsockopt) and the errno; the socket stays the caller's to close
     */
    NativeMessageEnd(NativeSocket socket, boolean datagram) throws NativeSocketException {
        this.socket = socket;
        this.datagram = datagram;
        int r = Sockets.blockWithTimeout(socket.fd(), SLICE_MILLIS);
        if (r < 0) {
            throw NativeSocketException.of("fcntl/setsockopt(fd " + socket.fd() + ", SO_RCVTIMEO) of a ping-pong end", r);
        }
    }

    /** @return the socket, for its options */
    NativeSocket socket() {
        return socket;
    }

    @Override
    public int read(ByteBuffer buf, long deadlineNanos, boolean whole) throws IOException {
        busy = true;
        try {
            return readBusy(buf, deadlineNanos, whole);
        } finally {
            busy = false;
        }
    }

    private int readBusy(ByteBuffer buf, long deadlineNanos, boolean whole) throws IOException {
        long base = readInto.of(buf);
        while (true) {
            int pos = buf.position();
            int n = Sockets.recvBlockingStamped(socket.fd(), base + pos, buf.limit() - pos, stampsAddress + RECEIVE_STAMP);
            if (n == -Errno.EAGAIN) {
                int s = waited(deadlineNanos);
                if (s != OK) {
                    return s;
                }
                continue;
            }
            if (n < 0) {
                throw NativeSocketException.of("recv(fd " + socket.fd() + ")", n);
            }
            if (n == 0 && !datagram) {
                return EOF;
            }
            buf.position(pos + n);
            if (datagram || !whole || !buf.hasRemaining()) {
                return OK;
            }
        }
    }

    @Override
    public int write(ByteBuffer buf, long deadlineNanos) throws IOException {
        busy = true;
        try {
            return writeBusy(buf, deadlineNanos);
        } finally {
            busy = false;
        }
    }

    private int writeBusy(ByteBuffer buf, long deadlineNanos) throws IOException {
        long base = writeFrom.of(buf);
        boolean first = true;
        while (buf.hasRemaining()) {
            int pos = buf.position();
            int n = first ? socket.sendStamped(base + pos, buf.limit() - pos, SLICE_MILLIS, stampsAddress + SEND_STAMP)
                    : socket.send(base + pos, buf.limit() - pos, SLICE_MILLIS);
            first = false;
            if (n == NativeSocket.WAIT_RAN_OUT) {
                int s = waited(deadlineNanos);
                if (s != OK) {
                    return s;
                }
                continue;
            }
            // a datagram goes whole or not at all
            buf.position(datagram ? buf.limit() : pos + n);
        }
        return OK;
    }

    /**
     * Receives and answers in one native call ({@link NativeSocket#echo}), to the connected peer or
     * the socket's target. An answer that the native call could not send whole is finished by
     * {@link #write}.
     */
    @Override
    public int echo(ByteBuffer buf, long timeoutNanos) throws IOException {
        buf.clear();
        long r;
        busy = true;
        try {
            long base = readInto.of(buf);
            while ((r = socket.echo(base, buf.capacity())) == NativeSocket.WAIT_RAN_OUT) {
                int s = waited(NO_DEADLINE);
                if (s != OK) {
                    return s;
                }
            }
        } finally {
            busy = false;
        }
        int got = (int) r;
        int sent = (int) (r >>> 32);
        if (got == 0 && !datagram) {
            return EOF;
        }
        buf.limit(got).position(sent);
        return sent == got ? OK : write(buf, System.nanoTime() + timeoutNanos);
    }

    @Override
    public boolean stampsCalls() {
        return true;
    }

    @Override
    public long sendStartNanos() {
        return stamps.getLong(SEND_STAMP);
    }

    @Override
    public long receiveEndNanos() {
        return stamps.getLong(RECEIVE_STAMP);
    }

    /** One direct buffer's native address, looked up again only when the buffer changes. */
    private static final class BufferAddress {
        private ByteBuffer buffer;
        private long address;

        long of(ByteBuffer buf) {
            if (buf != buffer) {
                address = NativeSocket.address(buf);
                buffer = buf;
            }
            return address;
        }
    }

    /** @return {@link #OK} to wait on, {@link #STOPPED} or {@link #TIMEOUT} */
    private int waited(long deadlineNanos) throws ClosedByInterruptException {
        if (stop) {
            return STOPPED;
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new ClosedByInterruptException();
        }
        if (deadlineNanos != NO_DEADLINE && System.nanoTime() - deadlineNanos >= 0) {
            return TIMEOUT;
        }
        return OK;
    }

    /** @return for a TCP end, a reader of its socket's {@code TCP_INFO} by getsockopt; empty for a datagram end */
    @Override
    public Optional<TcpInfoSources.Found> tcpInfo() {
        return datagram ? Optional.empty()
                : Optional.of(new TcpInfoSources.Found(new NativeTcpConnectionInfo(socket), null));
    }

    @Override
    public void requestStop() {
        stop = true;
    }

    /**
     * Stops the end and closes the socket; close(2) releases the descriptor even when it reports an
     * error. A call still running on another thread ends within one wait slice of the stop; it is
     * waited for, up to {@value #CLOSE_WAIT_NANOS} ns, so that it never polls a descriptor number
     * the process may have reused.
     */
    @Override
    public void close() {
        stop = true;
        long until = System.nanoTime() + CLOSE_WAIT_NANOS;
        while (busy && System.nanoTime() - until < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
        }
        try {
            socket.close();
        } catch (NativeSocketException ignored) {
            // the descriptor is released all the same
        }
    }
}
