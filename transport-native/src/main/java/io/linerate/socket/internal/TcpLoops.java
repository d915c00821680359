package io.linerate.socket.internal;

import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.PayloadFile;
import java.io.IOException;

/**
 * The send and receive loops of a native TCP stream socket, shared by the ends in one JVM
 * ({@link NativeStreamTransfer}) and the ends for peers ({@link PeerChannel}). They move bytes
 * between the socket and a direct buffer by address and allocate nothing. Both make the socket
 * blocking and wait inside the send or receive call itself, each wait bounded by a socket timeout
 * of {@value #POLL_MILLIS} ms so that a stop request is seen. The spec's
 * {@link io.linerate.core.StreamIo} may take the copies out: the sender then sends each message
 * from a {@link PayloadFile} with {@code sendfile(2)}, the receiver drops the bytes with
 * {@code MSG_TRUNC}. Each loop counts its calls that moved payload ({@link TcpCalls}).
 */
final class TcpLoops {
    /** Longest single poll(2) of a loop, ms: how often it looks at the stop flag while waiting. */
    static final int POLL_MILLIS = 10;

    private TcpLoops() {}

    /**
     * Sends payload-sized messages until the context's bound, then shuts the output down so that the
     * peer reads the end of the stream.
     *
     * @param address the send buffer's address, holding at least the payload
     * @param file the payload in a file, to send each message from with {@code sendfile(2)} (a
     *     message is at most one payload: it starts at byte 0 and a partial send resumes where it
     *     stopped); null to {@code send(2)} from {@code address}
     * @param window told the context's phase before each message ({@link RetransmitWindow#observe})
     * @param calls told the calls that moved payload when the loop ends
     * @throws IOException when a send fails, or makes no progress for the I/O timeout
     */
    static void send(NativeSocket tx, long address, PayloadFile file, SenderContext ctx, RetransmitWindow window,
                     TcpCalls calls) throws IOException {
        long stallNanos = ctx.ioTimeoutNanos();
        int fd = tx.fd();
        int fileFd = file == null ? -1 : file.fd();
        long moved = 0;
        try {
            blockWithTimeout(fd, "sender");
            int n;
            while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
                window.observe(ctx.phase());
                int off = 0;
                long progressAt = System.nanoTime();
                while (off < n) {
                    int w = fileFd < 0 ? Sockets.sendBlocking(fd, address + off, n - off)
                            : Sockets.sendFileBlocking(fd, fileFd, off, n - off);
                    if (w < 0 && w != -Errno.EAGAIN) {
                        throw NativeSocketException.of((fileFd < 0 ? "send(fd " : "sendfile(fd ") + fd + ")", w);
                    }
                    if (w > 0) {
                        moved++;
                        off += w;
                        ctx.sent(w, off == n);
                        progressAt = System.nanoTime();
                    } else if (ctx.stopRequested()) {
                        return;
                    } else if (System.nanoTime() - progressAt > stallNanos) {
                        throw NativeSocketException.timedOut("send(fd " + fd + ") after " + ctx.bytesSent()
                                + " bytes", stallNanos / 1_000_000L);
                    }
                }
            }
        } finally {
            calls.ran(moved);
            try {
                tx.shutdownOutput();
            } catch (NativeSocketException ignored) {
                // the peer is gone; the send error, if any, is already on its way
            }
        }
    }

    /** Makes the socket blocking with a send and receive timeout of {@value #POLL_MILLIS} ms. */
    private static void blockWithTimeout(int fd, String end) throws NativeSocketException {
        int made = Sockets.blockWithTimeout(fd, POLL_MILLIS);
        if (made < 0) {
            throw NativeSocketException.of("fcntl/setsockopt(fd " + fd + ", SO_SNDTIMEO, SO_RCVTIMEO) of a stream "
                    + end, made);
        }
    }

    /**
     * Counts bytes until the end of the stream or a stop request. The receiver waits inside
     * {@code recv(2)} itself, the socket made blocking with {@code SO_RCVTIMEO} of
     * {@value #POLL_MILLIS} ms, as a blocking receiver such as iperf3's does: a wait in
     * {@code poll(2)} between non-blocking receives costs the sending side, which on loopback
     * wakes the receiver from its own system call, more than twice the CPU per byte for a
     * {@code MSG_TRUNC} receiver (measured on Linux 6.18, 2 CPUs).
     *
     * @param address the receive buffer's address; unused when {@code calls} {@link TcpCalls#truncates truncates}
     * @param capacity the receive buffer's size, bytes: the most one call takes
     * @param calls which receive to make ({@code recv(2)}, or with {@code MSG_TRUNC} the kernel drops
     *     the bytes), told the calls that moved payload when the loop ends
     */
    static void receive(NativeSocket rx, long address, int capacity, ReceiverContext ctx, TcpCalls calls)
            throws IOException {
        int fd = rx.fd();
        blockWithTimeout(fd, "receiver");
        boolean truncate = calls.truncates();
        long moved = 0;
        try {
            while (!ctx.stopRequested()) {
                int r = truncate ? Sockets.recvTruncatedBlocking(fd, capacity) : Sockets.recvBlocking(fd, address, capacity);
                if (r > 0) {
                    moved++;
                    ctx.received(r);
                } else if (r == 0) {
                    ctx.endOfStream();
                    return;
                } else if (r != -Errno.EAGAIN) {
                    throw NativeSocketException.of("recv(fd " + fd + (truncate ? ", MSG_TRUNC)" : ")"), r);
                }
            }
        } finally {
            calls.ran(moved);
        }
    }
}
