package io.linerate.socket.internal;

import io.linerate.jni.NativeLibrary;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;

/**
 * The JNI functions of {@code src/main/c/socket.c}, on plain socket descriptors. Every function
 * takes primitives and direct-buffer addresses and returns a non-negative result or {@code -errno}
 * ({@link io.linerate.jni.Errno}). Sockets are non-blocking; each wait is a poll(2) bounded by the
 * caller's timeout in ms. Load the library with {@code LIBRARY.ensureLoaded()} before the first call.
 */
public final class Sockets {
    /** {@code liblinerate-socket.so}, packed in this module's jar. */
    public static final NativeLibrary LIBRARY =
            NativeLibrary.of("linerate-socket", "the native socket transport runs on Linux sockets only", MethodHandles.lookup());

    private Sockets() {}

    /** @return the address of a direct buffer */
    public static native long address(ByteBuffer directBuffer);

    /** socket(AF_INET or AF_INET6 for family 4 or 6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC): fd or -errno. */
    public static native int tcpSocket(int family);

    /** socket(AF_INET or AF_INET6 for family 4 or 6, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC): fd or -errno. */
    public static native int udpSocket(int family);

    /** bind(2) to the 4 or 16 address bytes at {@code addr} and {@code port}: 0 or -errno. */
    public static native int bind(int fd, int family, long addr, int port);

    /** bind(2) to the 4 or 16 address bytes at {@code addr} and {@code port}, then listen(2): 0 or -errno. */
    public static native int bindListen(int fd, int family, long addr, int port, int backlog);

    /** @return the socket's local port (getsockname(2)), or -errno */
    public static native int localPort(int fd);

    /**
     * getpeername(2): writes the connected peer's 4 (IPv4) or 16 (IPv6) address bytes at {@code out},
     * which holds 16.
     *
     * @return 4 or 6, the family of the bytes written, or -errno
     */
    public static native int peerAddress(int fd, long out);

    /** accept4(2), polling up to {@code timeoutMs}: the new fd (non-blocking), -ETIMEDOUT, or -errno. */
    public static native int accept(int fd, int timeoutMs);

    /** connect(2), polling up to {@code timeoutMs} for it to complete: 0, -ETIMEDOUT, or -errno (SO_ERROR). */
    public static native int connect(int fd, int family, long addr, int port, int timeoutMs);

    /** send(2) of {@code len} bytes at {@code addr}, polling up to {@code timeoutMs}: bytes sent, -EAGAIN when the wait ran out, or -errno. */
    public static native int send(int fd, long addr, int len, int timeoutMs);

    /** recv(2) into {@code len} bytes at {@code addr}, polling up to {@code timeoutMs}: bytes read (0 at the end of the stream), -EAGAIN when the wait ran out, or -errno. */
    public static native int recv(int fd, long addr, int len, int timeoutMs);

    /**
     * recv(2) with {@code MSG_TRUNC} on a TCP socket: the kernel drops up to {@code len} bytes of
     * the stream instead of copying them (tcp(7)), polling up to {@code timeoutMs}.
     *
     * @return bytes dropped (0 at the end of the stream), -EAGAIN when the wait ran out, or -errno
     */
    public static native int recvTruncated(int fd, int len, int timeoutMs);

    /**
     * memfd_create(2) of a file named {@code linerate-payload} (close-on-exec), filled with the
     * {@code len} bytes at {@code addr}.
     *
     * @return its descriptor, or -errno; nothing is left open on an error
     */
    public static native int payloadFile(long addr, int len);

    /**
     * sendfile(2) of up to {@code count} bytes of {@code inFd} from byte {@code offset} to the
     * socket {@code fd}, polling up to {@code timeoutMs} for room; {@code inFd}'s own file offset is
     * left alone.
     *
     * @return bytes sent, -EAGAIN when the wait ran out, or -errno
     */
    public static native int sendFile(int fd, int inFd, long offset, int count, int timeoutMs);

    /**
     * Makes {@code fd} blocking, each send or receive waiting at most {@code timeoutMs}
     * (SO_SNDTIMEO, SO_RCVTIMEO): 0, or -errno.
     */
    public static native int blockWithTimeout(int fd, int timeoutMs);

    /**
     * send(2) on a socket of {@link #blockWithTimeout}.
     *
     * @return bytes sent (fewer than {@code len} when its timeout ran out part-way), -EAGAIN when it
     *     ran out before any, or -errno
     */
    public static native int sendBlocking(int fd, long addr, int len);

    /**
     * sendfile(2) of up to {@code count} bytes of {@code inFd} from byte {@code offset} on a socket
     * of {@link #blockWithTimeout}; {@code inFd}'s own file offset is left alone.
     *
     * @return bytes sent (fewer than {@code count} when its timeout ran out part-way), -EAGAIN when
     *     it ran out before any, or -errno
     */
    public static native int sendFileBlocking(int fd, int inFd, long offset, int count);

    /** recv(2) on a socket of {@link #blockWithTimeout}: bytes read (0 at the end of the stream), -EAGAIN when its timeout ran out, or -errno. */
    public static native int recvBlocking(int fd, long addr, int len);

    /**
     * {@link #recvBlocking} that, when the call returns data or the end of the stream, writes the
     * time it returned to the 8 bytes at {@code stamp}: {@code CLOCK_MONOTONIC} in ns, the clock of
     * {@link System#nanoTime()} on Linux.
     *
     * @return as {@link #recvBlocking}
     */
    public static native int recvBlockingStamped(int fd, long addr, int len, long stamp);

    /**
     * An echo step on a socket of {@link #blockWithTimeout}: one recv(2) of up to {@code cap} bytes
     * at {@code addr}, then one send(2) of what came ({@code family} 0, a connected socket) or
     * sendto(2) to the peer's 4 or 16 address bytes at {@code peer} and {@code port} ({@code family}
     * 4 or 6), with no return to Java between them.
     *
     * @return {@code (bytes sent << 32) | bytes received}, the bytes sent fewer than those received
     *     (0 when the send failed) when the send's timeout ran out part-way or it failed, so that the
     *     caller sends the rest itself; 0 at the end of a stream or for an empty datagram; -EAGAIN
     *     when nothing came within the receive timeout; or the recv(2)'s -errno
     */
    public static native long echoBlocking(int fd, int family, long peer, int port, long addr, int cap);

    /**
     * recv(2) with {@code MSG_TRUNC} on a TCP socket of {@link #blockWithTimeout}: the kernel drops
     * up to {@code len} bytes instead of copying them (tcp(7)).
     *
     * @return bytes dropped (0 at the end of the stream), -EAGAIN when its timeout ran out, or -errno
     */
    public static native int recvTruncatedBlocking(int fd, int len);

    /**
     * poll(2) on {@code count} descriptors, 1..1024, waiting up to {@code timeoutMs}: at
     * {@code entries} lie {@code count} triples of ints {fd, events, revents}
     * ({@link Layout#POLLIN}, {@link Layout#POLLOUT}); the call writes each revents.
     *
     * @return how many descriptors have events, 0 when the wait ran out, or -errno (-EINVAL for a count out of range)
     */
    public static native int pollAll(long entries, int count, int timeoutMs);

    /** shutdown(2): 0 or -errno. */
    public static native int shutdown(int fd, int how);

    /** close(2): 0 or -errno. */
    public static native int close(int fd);

    /** setsockopt(2) of an int option: 0 or -errno. */
    public static native int setInt(int fd, int level, int name, int value);

    /** getsockopt(2) of an int option: the value (non-negative), or -errno. */
    public static native int getInt(int fd, int level, int name);

    /** getsockopt(TCP_INFO) into {@code capacity} bytes at {@code out}: the length the kernel wrote, or -errno. */
    public static native int tcpInfo(int fd, long out, int capacity);

    /**
     * Writes the sizes, offsets and constants listed by {@link Layout} as 32-bit ints at {@code out}.
     *
     * @return how many were written, or -ENOSPC if {@code capacity} ints do not suffice
     */
    public static native int layout(long out, int capacity);

    /** socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC): fd or -errno. */
    public static native int unixDatagramSocket();

    /** bind(2) to the Unix address of {@code len} path bytes at {@code path} (a leading NUL: abstract): 0 or -errno. */
    public static native int bindUnix(int fd, long path, int len);

    /** connect(2) to the Unix address of {@code len} path bytes at {@code path}: 0 or -errno. */
    public static native int connectUnix(int fd, long path, int len);

    /** sendto(2) of {@code len} bytes at {@code addr} to the peer's 4 or 16 address bytes at {@code peer} and {@code port}, polling up to {@code timeoutMs}: bytes sent, -EAGAIN when the wait ran out, or -errno. */
    public static native int sendTo(int fd, int family, long peer, int port, long addr, int len, int timeoutMs);

    /**
     * {@link #send} (with {@code family} 0) or {@link #sendTo} (4 or 6) that first writes the time
     * to the 8 bytes at {@code stamp}: {@code CLOCK_MONOTONIC} in ns, the clock of
     * {@link System#nanoTime()} on Linux, read right before the system call.
     *
     * @return as {@link #send}
     */
    public static native int sendStamped(int fd, int family, long peer, int port, long addr, int len, int timeoutMs,
                                         long stamp);

    /** setsockopt(SO_BINDTODEVICE) to the {@code len} name bytes at {@code name}: 0 or -errno (EPERM without CAP_NET_RAW, ENODEV for no such interface). */
    public static native int bindToDevice(int fd, long name, int len);

    /** getsockopt(SO_BINDTODEVICE) into {@code capacity} bytes at {@code out}: the length written (0 when unbound), or -errno. */
    public static native int boundDevice(int fd, long out, int capacity);

    /**
     * sendmmsg(2) of {@code count} messages, 1..1024, polling up to {@code timeoutMs} for room:
     * message i is the {@code lens[i]} bytes at {@code base + i * slotBytes}, {@code lens} holding
     * {@code count} native-order ints.
     *
     * @return messages the kernel accepted, 1..count; -EAGAIN when the wait ran out; -EINVAL for a count out of range; or -errno
     */
    public static native int sendBatch(int fd, long base, int slotBytes, long lens, int count, int timeoutMs);

    /**
     * recvmmsg(2) of up to {@code count} messages, 1..1024, polling up to {@code timeoutMs} for
     * data: message i lands in the {@code slotBytes} at {@code base + i * slotBytes}; its length
     * goes to {@code lens[i]} and the segment size of its {@code UDP_GRO} control message to
     * {@code gsoSizes[i]} (0 without one: a single datagram; -1 when the message was cut to its
     * slot), both holding {@code count} native-order ints.
     *
     * @return messages received, 1..count; -EAGAIN when the wait ran out; -EINVAL for a count out of range; or -errno
     */
    public static native int recvBatch(int fd, long base, int slotBytes, int count, long lens, long gsoSizes, int timeoutMs);
}
