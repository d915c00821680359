package io.linerate.socket.internal;

import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code SO_BINDTODEVICE} (socket(7)) on a {@link NativeSocket}: the socket takes and sends packets
 * on one interface only. The name travels as its bytes and a terminating NUL, at most IFNAMSIZ (16).
 */
public final class BindToDevice {
    /** IFNAMSIZ of {@code <net/if.h>}: the longest name with its NUL, bytes. */
    private static final int IFNAMSIZ = 16;

    private BindToDevice() {}

    /**
     * setsockopt(SO_BINDTODEVICE).
     *
     * @param name an interface name, 1..15 bytes
     * @throws NativeSocketException naming the call and the errno: ENODEV for no such interface,
     *     EPERM without CAP_NET_RAW
     */
    public static void bind(NativeSocket socket, String name) throws NativeSocketException {
        byte[] raw = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocateDirect(raw.length + 1);
        b.put(0, raw);
        int r;
        try {
            r = Sockets.bindToDevice(socket.fd(), Sockets.address(b), raw.length + 1);
        } finally {
            Reference.reachabilityFence(b);
        }
        if (r < 0) {
            throw NativeSocketException.of("setsockopt(fd " + socket.fd() + ", SO_BINDTODEVICE, " + name + ")", r);
        }
    }

    /**
     * @return getsockopt(SO_BINDTODEVICE): the interface the socket is bound to, empty for none
     * @throws NativeSocketException naming the call and the errno
     */
    public static Optional<String> read(NativeSocket socket) throws NativeSocketException {
        ByteBuffer b = ByteBuffer.allocateDirect(IFNAMSIZ);
        int n;
        try {
            n = Sockets.boundDevice(socket.fd(), Sockets.address(b), IFNAMSIZ);
        } finally {
            Reference.reachabilityFence(b);
        }
        if (n < 0) {
            throw NativeSocketException.of("getsockopt(fd " + socket.fd() + ", SO_BINDTODEVICE)", n);
        }
        int len = 0;
        while (len < n && b.get(len) != 0) {
            len++;
        }
        byte[] raw = new byte[len];
        b.get(0, raw);
        return len == 0 ? Optional.empty() : Optional.of(new String(raw, StandardCharsets.UTF_8));
    }
}
