package io.linerate.socket.internal;

import io.linerate.core.DataPath;
import io.linerate.core.StreamIo;
import java.util.Optional;

/**
 * The system call one end of a native TCP stream moves the payload with, as the spec's
 * {@link StreamIo} chose it, and how many of those calls moved payload: the end's
 * {@link DataPath.End} once its loop has run. A TCP call writes or reads one run of the byte
 * stream, whatever the segments on the wire (the kernel cuts those), so the end's segments are
 * its calls that moved payload: one per call, at most one. The loop counts in a local variable
 * and publishes the count once, when it ends ({@link #ran}).
 */
final class TcpCalls {
    /** The default send, from linerate's buffer: {@code sendto(2)} with no address, which send(2) defines as {@code send(2)}. */
    static final String SEND = "send(2)";
    /** The send of {@link StreamIo#zeroCopySend()}: from a file of the payload. */
    static final String SENDFILE = "sendfile(2)";
    /** The default receive, into a buffer of this process. */
    static final String RECV = "recv(2)";
    /** The receive of {@link StreamIo#skipReceiveCopy()}: the kernel drops the bytes. */
    static final String RECV_TRUNCATED = "recv(2) with MSG_TRUNC";

    private final String call;
    /** Calls that moved payload, once the loop ended; -1 before. */
    private volatile long calls = -1;

    private TcpCalls(String call) {
        this.call = call;
    }

    /** @return a sending end's count: {@value #SENDFILE} when {@code io} asks for zero-copy, else {@value #SEND} */
    static TcpCalls sender(StreamIo io) {
        return new TcpCalls(io.zeroCopySend() ? SENDFILE : SEND);
    }

    /** @return a receiving end's count: {@value #RECV_TRUNCATED} when {@code io} skips the copy, else {@value #RECV} */
    static TcpCalls receiver(StreamIo io) {
        return new TcpCalls(io.skipReceiveCopy() ? RECV_TRUNCATED : RECV);
    }

    /** @return whether the receive drops the bytes ({@code MSG_TRUNC}) */
    boolean truncates() {
        return call.equals(RECV_TRUNCATED);
    }

    /** @param moved the calls that moved payload, whole loop, 0 or more */
    void ran(long moved) {
        calls = moved;
    }

    /** @return the end's calls once its loop ran (segments = calls, at most 1 per call); empty before */
    Optional<DataPath.End> end() {
        long n = calls;
        return n < 0 ? Optional.empty() : Optional.of(new DataPath.End(call, n, n, n > 0 ? 1 : 0));
    }

    /** @return {@link #end()}, or no calls when the loop did not run */
    DataPath.End endOrNone() {
        return end().orElseGet(() -> new DataPath.End(call, 0, 0, 0));
    }
}
