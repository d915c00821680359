package io.linerate.socket;

import io.linerate.socket.internal.Sockets;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * A file in memory holding one payload, for {@link NativeSocket#sendFile}: made with
 * memfd_create(2) under the name {@value #NAME} (so it shows in {@code /proc/PID/fd} as
 * {@code /memfd:linerate-payload}), close-on-exec, filled once with the payload's bytes. Not
 * thread-safe; close it with the socket it feeds.
 */
public final class PayloadFile implements AutoCloseable {
    /** The name memfd_create(2) gives the file. */
    public static final String NAME = "linerate-payload";

    private final int fd;
    private final int bytes;
    private volatile boolean closed;

    private PayloadFile(int fd, int bytes) {
        this.fd = fd;
        this.bytes = bytes;
    }

    /**
     * @param payload a direct buffer; its bytes from 0 to its limit become the file
     * @return the file, {@code payload.limit()} bytes long
     * @throws NativeSocketException naming memfd_create(2) or write(2) and the errno; nothing is left open
     * @throws IllegalArgumentException for a heap buffer or an empty one
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    public static PayloadFile of(ByteBuffer payload) throws NativeSocketException {
        if (payload.limit() < 1) {
            throw new IllegalArgumentException("a payload file needs at least 1 byte, not " + payload.limit());
        }
        long address = NativeSocket.address(payload);
        int fd;
        try {
            fd = Sockets.payloadFile(address, payload.limit());
        } finally {
            Reference.reachabilityFence(payload);
        }
        if (fd < 0) {
            throw NativeSocketException.of("memfd_create(" + NAME + ") of " + payload.limit() + " bytes", fd);
        }
        return new PayloadFile(fd, payload.limit());
    }

    /** @return the descriptor number */
    public int fd() {
        return fd;
    }

    /** @return the file's length, bytes */
    public int bytes() {
        return bytes;
    }

    /** close(2); later calls do nothing. @throws NativeSocketException naming the errno (the descriptor is released all the same) */
    @Override
    public void close() throws NativeSocketException {
        if (closed) {
            return;
        }
        closed = true;
        int r = Sockets.close(fd);
        if (r < 0) {
            throw NativeSocketException.of("close(fd " + fd + ", " + NAME + ")", r);
        }
    }

    @Override
    public String toString() {
        return NAME + " fd " + fd + ", " + bytes + " bytes" + (closed ? " (closed)" : "");
    }
}
