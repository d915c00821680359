package io.linerate.socket.internal;

import io.linerate.core.TransferException;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.lang.ref.Reference;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * {@code SO_BINDTODEVICE} (socket(7)) on a {@link NativeSocket}: the socket takes and sends packets
 * on one interface only. The name travels as its bytes and a terminating NUL, at most IFNAMSIZ (16).
 */
public final class BindToDevice {
    /** Where Linux lists every network interface of this namespace (sysfs-class-net). */
    private static final Path SYS_CLASS_NET = Path.of("/sys/class/net");
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

    /**
     * Checks before a ping-pong in this JVM that {@code name} is an interface of this host
     * ({@code /sys/class/net}, which also lists interfaces that are down or hold no address, as the
     * JDK's list does not) and that it carries {@code loopback}, the only address such a ping-pong
     * uses: bound to any other device, its packets have no route, and connect(2) times out.
     *
     * @param name the interface
     * @param loopback the ping-pong's address, 127.0.0.1 or ::1
     * @throws TransferException a usage error naming the interface and the allowed ones
     */
    static void checkCarriesLoopback(String name, InetAddress loopback) throws TransferException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(SYS_CLASS_NET)) {
            for (Path p : dir) {
                names.add(p.getFileName().toString());
            }
        } catch (IOException e) {
            throw new TransferException("bindtodev " + name + ": cannot list the network interfaces in " + SYS_CLASS_NET
                    + ": " + e.getMessage(), e, true);
        }
        Collections.sort(names);
        if (!names.contains(name)) {
            throw new TransferException("bindtodev " + name + ": no network interface named '" + name
                    + "' on this host; allowed: one of " + String.join(", ", names), null, true);
        }
        try {
            NetworkInterface nif = NetworkInterface.getByName(name);
            if (nif == null || !Collections.list(nif.getInetAddresses()).contains(loopback)) {
                throw new TransferException("bindtodev " + name + ": this ping-pong runs over " + loopback.getHostAddress()
                        + ", which " + name + " does not carry" + (down(name) ? " (it is down)" : "")
                        + "; allowed: an interface that holds it, such as lo; with --peer, the interface towards the peer",
                        null, true);
            }
        } catch (SocketException e) {
            throw new TransferException("bindtodev " + name + ": cannot read its addresses: " + e.getMessage(), e, true);
        }
    }

    /** @return whether sysfs says the interface is down ({@code operstate}); false where it cannot be read */
    private static boolean down(String name) {
        try {
            return Files.readString(SYS_CLASS_NET.resolve(name).resolve("operstate")).strip().equals("down");
        } catch (IOException e) {
            return false;
        }
    }
}
