package io.linerate.socket;

import io.linerate.core.AddressFamily;
import io.linerate.jni.Errno;
import io.linerate.socket.internal.Layout;
import io.linerate.socket.internal.Sockets;
import java.lang.ref.Reference;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One socket descriptor of {@code liblinerate-socket.so} (TCP, UDP or a Unix-domain datagram
 * socket), non-blocking, with every wait bounded
 * by a poll(2) timeout. Data moves between the socket and native memory given as an address and a
 * length ({@link #address(ByteBuffer)} of a direct buffer), so the send and receive paths neither
 * allocate nor copy through Java arrays. Every failure is a {@link NativeSocketException} naming
 * the call, the errno's name and its text. Not thread-safe except that one thread may send while
 * another receives.
 */
public final class NativeSocket implements AutoCloseable {
    /** What {@link #send} and {@link #receive} return when their wait ran out with nothing moved. */
    public static final int WAIT_RAN_OUT = -1;

    private final int fd;
    private final AddressFamily family;
    private final String kind;
    private volatile boolean closed;
    /** Where {@link #send} sends on an unconnected UDP socket ({@link #target}): the address bytes, or null. */
    private ByteBuffer target;
    private long targetAddress;
    private int targetPort;
    private final SocketOptions options;

    private NativeSocket(int fd, AddressFamily family) {
        this(fd, family, "TCP");
    }

    private NativeSocket(int fd, AddressFamily family, String kind) {
        this.fd = fd;
        this.family = family;
        this.kind = kind;
        this.options = new SocketOptions(fd, family);
    }

    /**
     * @return why {@code liblinerate-socket.so} cannot be loaded on this host (not Linux, another
     *     architecture, no library), or empty when it can
     */
    public static Optional<String> unavailabilityCause() {
        return Optional.ofNullable(Sockets.LIBRARY.tryLoad());
    }

    /**
     * @param family IPv4 or IPv6
     * @return a new non-blocking TCP socket
     * @throws NativeSocketException naming {@code socket(2)} and the errno
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    public static NativeSocket tcp(AddressFamily family) throws NativeSocketException {
        Sockets.LIBRARY.ensureLoaded();
        int fd = Sockets.tcpSocket(familyNumber(family));
        if (fd < 0) {
            throw NativeSocketException.of("socket(IPv" + family.label() + ", SOCK_STREAM)", fd);
        }
        return new NativeSocket(fd, family);
    }

    /**
     * A UDP socket: {@link #bind} it, {@link #connect} it to its peer (which returns at once), then
     * {@link #send} and {@link #receive} move one datagram each. The TCP options fail on it.
     *
     * @param family IPv4 or IPv6
     * @return a new non-blocking UDP socket
     * @throws NativeSocketException naming {@code socket(2)} and the errno
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    public static NativeSocket udp(AddressFamily family) throws NativeSocketException {
        Sockets.LIBRARY.ensureLoaded();
        int fd = Sockets.udpSocket(familyNumber(family));
        if (fd < 0) {
            throw NativeSocketException.of("socket(IPv" + family.label() + ", SOCK_DGRAM)", fd);
        }
        return new NativeSocket(fd, family, "UDP");
    }

    /**
     * @return a new non-blocking Unix-domain datagram socket (AF_UNIX, SOCK_DGRAM); its
     *     {@link #family()} is null
     * @throws NativeSocketException naming {@code socket(2)} and the errno
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    public static NativeSocket unixDatagram() throws NativeSocketException {
        Sockets.LIBRARY.ensureLoaded();
        int fd = Sockets.unixDatagramSocket();
        if (fd < 0) {
            throw NativeSocketException.of("socket(AF_UNIX, SOCK_DGRAM)", fd);
        }
        return new NativeSocket(fd, null, "Unix datagram");
    }

    /**
     * bind(2) without listen(2): a UDP socket's local address.
     *
     * @param address a local address of this socket's family
     * @param port 0..65535; 0 lets the kernel choose
     * @throws NativeSocketException naming the call and the errno (EADDRINUSE for a port in use)
     * @throws IllegalArgumentException for a port out of range or an address of another family
     */
    public void bind(InetAddress address, int port) throws NativeSocketException {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " out of range; allowed: 0..65535");
        }
        ByteBuffer a = addressBytes(address);
        int r;
        try {
            r = Sockets.bind(fd, familyNumber(family), Sockets.address(a), port);
        } finally {
            Reference.reachabilityFence(a);
        }
        check(r, "bind(fd " + fd + ", " + address.getHostAddress() + " port " + port + ")");
    }

    /**
     * @param direct a direct buffer
     * @return its native address, for {@link #send} and {@link #receive}
     * @throws IllegalArgumentException if the buffer is not direct
     */
    public static long address(ByteBuffer direct) {
        if (!direct.isDirect()) {
            throw new IllegalArgumentException("a heap buffer has no native address; allocate it with ByteBuffer.allocateDirect");
        }
        Sockets.LIBRARY.ensureLoaded();
        return Sockets.address(direct);
    }

    /** @return the descriptor number */
    public int fd() {
        return fd;
    }

    /** @return the address family; null for a Unix-domain socket */
    public AddressFamily family() {
        return family;
    }

    /**
     * bind(2) and listen(2).
     *
     * @param address a local address of this socket's family
     * @param port 0..65535; 0 lets the kernel choose
     * @param backlog listen(2)'s backlog, at least 1
     * @throws NativeSocketException naming the call and the errno (EADDRINUSE for a port in use)
     * @throws IllegalArgumentException for a port or backlog out of range or an address of another family
     */
    public void bindAndListen(InetAddress address, int port, int backlog) throws NativeSocketException {
        if (port < 0 || port > 65535 || backlog < 1) {
            throw new IllegalArgumentException("port " + port + " or backlog " + backlog + " out of range; allowed: port 0..65535, backlog 1 or more");
        }
        ByteBuffer a = addressBytes(address);
        int r;
        try {
            r = Sockets.bindListen(fd, familyNumber(family), Sockets.address(a), port, backlog);
        } finally {
            Reference.reachabilityFence(a);
        }
        check(r, "bind+listen(fd " + fd + ", " + address.getHostAddress() + " port " + port + ")");
    }

    /**
     * Makes {@link #send} a sendto(2) to {@code address} and {@code port}: an unconnected UDP
     * socket's peer.
     */
    public void target(InetAddress address, int port) {
        ByteBuffer a = addressBytes(address);
        target = a;
        targetAddress = Sockets.address(a);
        targetPort = port;
    }

    /**
     * One echo step in one native call: receives one message of up to {@code capacity} bytes to
     * {@code address} and sends it back, to the connected peer or the {@link #target}. Allocates
     * nothing; for a socket made blocking with a receive and send timeout.
     *
     * @return {@code (bytes sent << 32) | bytes received}, the bytes sent fewer than those received
     *     when the send's timeout ran out part-way or it failed (the caller sends the rest and meets
     *     the error itself); 0 at the end of a stream or for an empty datagram; or
     *     {@link #WAIT_RAN_OUT} when nothing came within the receive timeout
     * @throws NativeSocketException naming recv(2) and the errno
     */
    public long echo(long address, int capacity) throws NativeSocketException {
        long r = target == null ? Sockets.echoBlocking(fd, 0, 0, 0, address, capacity)
                : Sockets.echoBlocking(fd, familyNumber(family), targetAddress, targetPort, address, capacity);
        if (r >= 0) {
            return r;
        }
        if (r == -Errno.EAGAIN) {
            return WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("recv(fd " + fd + ")", (int) r);
    }

    /**
     * Binds (or connects) a Unix-domain socket to an abstract address ({@code unix(7)}: a name
     * with a leading NUL, no file), which the kernel removes when the socket closes.
     *
     * @param name the name after the NUL, at most 107 bytes
     * @param connect connect(2) to the name instead of bind(2)
     * @throws NativeSocketException naming the call and the errno (EADDRINUSE for a name in use)
     */
    public void abstractAddress(String name, boolean connect) throws NativeSocketException {
        byte[] raw = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer p = ByteBuffer.allocateDirect(raw.length + 1);
        p.put(1, raw);
        int r;
        try {
            long at = Sockets.address(p);
            r = connect ? Sockets.connectUnix(fd, at, raw.length + 1) : Sockets.bindUnix(fd, at, raw.length + 1);
        } finally {
            Reference.reachabilityFence(p);
        }
        check(r, (connect ? "connect" : "bind") + "(fd " + fd + ", abstract Unix address @" + name + ")");
    }

    /** @return the local port, getsockname(2) @throws NativeSocketException naming the errno */
    public int localPort() throws NativeSocketException {
        return check(Sockets.localPort(fd), "getsockname(fd " + fd + ")");
    }

    /**
     * @return the address of the connected peer, getpeername(2)
     * @throws NativeSocketException naming the errno (ENOTCONN on a socket that is not connected)
     */
    public InetAddress peerAddress() throws NativeSocketException {
        ByteBuffer out = ByteBuffer.allocateDirect(16);
        int family;
        try {
            family = check(Sockets.peerAddress(fd, Sockets.address(out)), "getpeername(fd " + fd + ")");
        } finally {
            Reference.reachabilityFence(out);
        }
        byte[] raw = new byte[family == 6 ? 16 : 4];
        out.get(raw);
        try {
            return InetAddress.getByAddress(raw);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("getpeername gave " + raw.length + " address bytes", e);
        }
    }

    /**
     * Accepts one connection on a listening socket.
     *
     * @param timeoutMillis how long to wait for it, ms
     * @return the connected socket, non-blocking
     * @throws NativeSocketException naming accept4(2) and the errno, or, when the wait ran out, what waited and how long
     */
    public NativeSocket accept(int timeoutMillis) throws NativeSocketException {
        int c = Sockets.accept(fd, timeoutMillis);
        if (c == -Errno.ETIMEDOUT) {
            throw NativeSocketException.timedOut("accept(fd " + fd + ") for a connection", timeoutMillis);
        }
        check(c, "accept4(fd " + fd + ")");
        return new NativeSocket(c, family);
    }

    /**
     * connect(2), waiting for the handshake to complete.
     *
     * @throws NativeSocketException naming the call and the errno (ECONNREFUSED, ...), or, when the
     *     wait ran out, what waited and how long
     */
    public void connect(InetAddress address, int port, int timeoutMillis) throws NativeSocketException {
        ByteBuffer a = addressBytes(address);
        int r;
        try {
            r = Sockets.connect(fd, familyNumber(family), Sockets.address(a), port, timeoutMillis);
        } finally {
            Reference.reachabilityFence(a);
        }
        String call = "connect(fd " + fd + ", " + address.getHostAddress() + " port " + port + ")";
        if (r == -Errno.ETIMEDOUT) {
            throw NativeSocketException.timedOut(call, timeoutMillis);
        }
        check(r, call);
    }

    /**
     * send(2) of up to {@code length} bytes at {@code address} (sendto(2) to the {@link #target}
     * when there is one), waiting up to {@code pollMillis} for room in the send buffer. Allocates nothing.
     *
     * @return bytes sent, or {@link #WAIT_RAN_OUT}
     * @throws NativeSocketException naming send(2) and the errno (EPIPE, ECONNRESET, EBADF, ...)
     */
    public int send(long address, int length, int pollMillis) throws NativeSocketException {
        return sent(target == null ? Sockets.send(fd, address, length, pollMillis)
                : Sockets.sendTo(fd, familyNumber(family), targetAddress, targetPort, address, length, pollMillis));
    }

    /**
     * {@link #send(long, int, int)} that first writes the time to the 8 bytes at {@code stamp}, in
     * native byte order: {@code CLOCK_MONOTONIC} in ns, the clock of {@link System#nanoTime()} on
     * Linux, read in the native call right before send(2), so that a round trip timed from it
     * leaves out the call's way from Java. Allocates nothing.
     *
     * @return bytes sent, or {@link #WAIT_RAN_OUT}
     * @throws NativeSocketException naming send(2) and the errno
     */
    public int sendStamped(long address, int length, int pollMillis, long stamp) throws NativeSocketException {
        return sent(target == null ? Sockets.sendStamped(fd, 0, 0, 0, address, length, pollMillis, stamp)
                : Sockets.sendStamped(fd, familyNumber(family), targetAddress, targetPort, address, length, pollMillis,
                        stamp));
    }

    private int sent(int n) throws NativeSocketException {
        if (n >= 0) {
            return n;
        }
        if (n == -Errno.EAGAIN) {
            return WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("send(fd " + fd + ")", n);
    }

    /**
     * recv(2) of up to {@code length} bytes to {@code address}, waiting up to {@code pollMillis}
     * for data. Allocates nothing.
     *
     * @return bytes read, 0 at the end of the stream, or {@link #WAIT_RAN_OUT}
     * @throws NativeSocketException naming recv(2) and the errno
     */
    public int receive(long address, int length, int pollMillis) throws NativeSocketException {
        int n = Sockets.recv(fd, address, length, pollMillis);
        if (n >= 0) {
            return n;
        }
        if (n == -Errno.EAGAIN) {
            return WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("recv(fd " + fd + ")", n);
    }

    /**
     * sendfile(2) of up to {@code count} bytes of {@code file} from byte {@code offset}, waiting
     * up to {@code pollMillis} for room in the send buffer: the kernel takes the bytes from the
     * file's pages, with no copy made by this process. Allocates nothing.
     *
     * @param offset where in the file to start, 0..{@code file.bytes() - count}
     * @param count bytes to send at most, 1 or more
     * @return bytes sent, or {@link #WAIT_RAN_OUT}
     * @throws NativeSocketException naming sendfile(2) and the errno (EPIPE, ECONNRESET, EBADF, ...)
     */
    public int sendFile(PayloadFile file, long offset, int count, int pollMillis) throws NativeSocketException {
        int n = Sockets.sendFile(fd, file.fd(), offset, count, pollMillis);
        if (n >= 0) {
            return n;
        }
        if (n == -Errno.EAGAIN) {
            return WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("sendfile(fd " + fd + ", " + PayloadFile.NAME + ")", n);
    }

    /**
     * recv(2) with {@code MSG_TRUNC} on a TCP socket: the kernel drops up to {@code length} bytes
     * of the stream instead of copying them (tcp(7)), so they reach no buffer and their content
     * is not seen. Waits up to {@code pollMillis} for data. Allocates nothing.
     *
     * @return bytes dropped, 0 at the end of the stream, or {@link #WAIT_RAN_OUT}
     * @throws NativeSocketException naming recv(2) and the errno
     */
    public int receiveTruncated(int length, int pollMillis) throws NativeSocketException {
        int n = Sockets.recvTruncated(fd, length, pollMillis);
        if (n >= 0) {
            return n;
        }
        if (n == -Errno.EAGAIN) {
            return WAIT_RAN_OUT;
        }
        throw NativeSocketException.of("recv(fd " + fd + ", MSG_TRUNC)", n);
    }

    /** shutdown(SHUT_WR): the peer reads the end of the stream. @throws NativeSocketException naming the errno */
    public void shutdownOutput() throws NativeSocketException {
        check(Sockets.shutdown(fd, Layout.SHUT_WR), "shutdown(fd " + fd + ", SHUT_WR)");
    }

    /**
     * @return this socket's options (setsockopt(2) and getsockopt(2)); every call fails as
     *     {@link NativeSocketException} naming the option, the value and the errno
     */
    public SocketOptions options() {
        return options;
    }

    /** close(2); later calls do nothing. @throws NativeSocketException naming the errno (the descriptor is released all the same) */
    @Override
    public void close() throws NativeSocketException {
        if (closed) {
            return;
        }
        closed = true;
        check(Sockets.close(fd), "close(fd " + fd + ")");
    }

    @Override
    public String toString() {
        return kind + " socket fd " + fd + (closed ? " (closed)" : "");
    }

    static int check(int result, String call) throws NativeSocketException {
        if (result < 0) {
            throw NativeSocketException.of(call, result);
        }
        return result;
    }

    /** @return the address's bytes in a direct buffer, to keep reachable until the call that reads them returned */
    private ByteBuffer addressBytes(InetAddress address) {
        byte[] raw = address.getAddress();
        int want = family == AddressFamily.IPV6 ? 16 : 4;
        if (raw.length != want) {
            throw new IllegalArgumentException("address " + address.getHostAddress() + " is not an IPv" + family.label()
                    + " address; this socket is IPv" + family.label());
        }
        ByteBuffer b = ByteBuffer.allocateDirect(16);
        b.put(raw);
        return b;
    }

    private static int familyNumber(AddressFamily family) {
        return family == AddressFamily.IPV6 ? 6 : 4;
    }
}
