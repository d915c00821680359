package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.SocketOptions;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The two native sockets of a ping-pong with both ends in this JVM: TCP over the family's loopback
 * address (connected, the MSS read at both ends with {@code TCP_MAXSEG}), UDP over it (each end
 * sends to the other's port with sendto(2), or to a connected peer with {@link PingPongSpec#connect()}),
 * or two Unix-domain datagram sockets on abstract addresses ({@code unix(7)}; no file, so nothing
 * to delete), each connected to the other. With {@link PingPongSpec#bindToDevice()} every IP
 * socket is bound to the interface ({@code SO_BINDTODEVICE}) before it binds or connects, and the
 * binding is read back.
 */
final class PingPongLink implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    final NativeMessageEnd client;
    final NativeMessageEnd server;
    final AppliedOptions options;

    private PingPongLink(NativeMessageEnd client, NativeMessageEnd server, AppliedOptions options) {
        this.client = client;
        this.server = server;
        this.options = options;
    }

    /**
     * Opens both ends; each connect and accept is bounded by the spec's timeout.
     *
     * @throws TransferException naming the call and the errno; an interface that does not exist,
     *     or that this process may not bind to, is a usage error. Nothing is left open.
     */
    static PingPongLink open(PingPongSpec spec) throws TransferException {
        if (spec.bindToDevice().isPresent()) {
            BindToDevice.checkCarriesLoopback(spec.bindToDevice().get(), spec.family().loopbackAddress());
        }
        List<NativeSocket> opened = new ArrayList<>();
        try {
            return switch (spec.protocol()) {
                case TCP -> tcp(spec, opened);
                case UDP -> udp(spec, opened);
                case UNIX_DATAGRAM -> unixDatagram(spec, opened);
                default -> throw new IllegalArgumentException("the native transport runs tcp, udp and unix_datagram "
                        + "ping-pongs, not " + spec.protocol().label());
            };
        } catch (NativeSocketException e) {
            closeAll(opened);
            String device = spec.bindToDevice().orElse("");
            if (e.errno() == Errno.EPERM && !device.isEmpty()) {
                throw new TransferException("bindtodev " + device + ": SO_BINDTODEVICE was refused (" + e.getMessage()
                        + "); binding a socket to an interface needs CAP_NET_RAW: run as root or grant the capability",
                        e, true);
            }
            throw new TransferException("cannot set up the " + spec.protocol().label() + " ping-pong: " + e.getMessage(),
                    e, e.errno() == Errno.EADDRINUSE || e.errno() == Errno.ENODEV);
        } catch (TransferException | RuntimeException e) {
            closeAll(opened);
            throw e;
        }
    }

    private static PingPongLink tcp(PingPongSpec spec, List<NativeSocket> opened)
            throws NativeSocketException, TransferException {
        InetAddress lo = spec.family().loopbackAddress();
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
        NativeSocket listener = add(opened, NativeSocket.tcp(spec.family()));
        ipOptions(spec, listener);
        listener.bindAndListen(lo, 0, 1);
        NativeSocket c = add(opened, NativeSocket.tcp(spec.family()));
        ipOptions(spec, c);
        c.options().noDelay(spec.noDelay());
        c.connect(lo, listener.localPort(), timeout);
        NativeSocket s = add(opened, listener.accept(timeout));
        opened.remove(listener);
        listener.close();
        s.options().noDelay(spec.noDelay());
        checkBound(spec, c, s);
        TcpMss mss = TcpMss.read(spec.family(), c.options().maxSegment(), s.options().maxSegment(), "TCP_MAXSEG");
        SocketOptions co = c.options();
        AppliedOptions o = new AppliedOptions(spec.trafficClass(), co.trafficClass(), spec.sendBufferBytes(),
                co.sendBuffer(), spec.receiveBufferBytes(), co.receiveBuffer(), spec.noDelay(), co.noDelay(),
                Optional.of(mss));
        return new PingPongLink(new NativeMessageEnd(c, false), new NativeMessageEnd(s, false), o);
    }

    private static PingPongLink udp(PingPongSpec spec, List<NativeSocket> opened)
            throws NativeSocketException, TransferException {
        InetAddress lo = spec.family().loopbackAddress();
        NativeSocket s = add(opened, NativeSocket.udp(spec.family()));
        NativeSocket c = add(opened, NativeSocket.udp(spec.family()));
        for (NativeSocket x : List.of(s, c)) {
            ipOptions(spec, x);
            x.bind(lo, 0);
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.timeout().toMillis());
        if (spec.connect()) {
            c.connect(lo, s.localPort(), timeout);
            s.connect(lo, c.localPort(), timeout);
        } else {
            c.target(lo, s.localPort());
            s.target(lo, c.localPort());
        }
        checkBound(spec, c, s);
        return new PingPongLink(new NativeMessageEnd(c, true), new NativeMessageEnd(s, true), options(spec, c, true));
    }

    private static PingPongLink unixDatagram(PingPongSpec spec, List<NativeSocket> opened) throws NativeSocketException {
        String base = "linerate-pingpong-" + ProcessHandle.current().pid() + "-" + NAMES.incrementAndGet() + "-"
                + Long.toHexString(System.nanoTime());
        NativeSocket s = add(opened, NativeSocket.unixDatagram());
        NativeSocket c = add(opened, NativeSocket.unixDatagram());
        for (NativeSocket x : List.of(s, c)) {
            buffers(spec, x);
        }
        s.abstractAddress(base + "-server", false);
        c.abstractAddress(base + "-client", false);
        s.abstractAddress(base + "-client", true);
        c.abstractAddress(base + "-server", true);
        return new PingPongLink(new NativeMessageEnd(c, true), new NativeMessageEnd(s, true), options(spec, c, false));
    }

    private static NativeSocket add(List<NativeSocket> opened, NativeSocket s) {
        opened.add(s);
        return s;
    }

    /** SO_BINDTODEVICE, the traffic class and the buffers, before bind or connect. */
    private static void ipOptions(PingPongSpec spec, NativeSocket s) throws NativeSocketException {
        if (spec.bindToDevice().isPresent()) {
            BindToDevice.bind(s, spec.bindToDevice().get());
        }
        s.options().trafficClass(spec.trafficClass());
        buffers(spec, s);
    }

    private static void buffers(PingPongSpec spec, NativeSocket s) throws NativeSocketException {
        if (spec.sendBufferBytes() > 0) {
            s.options().sendBuffer(spec.sendBufferBytes());
        }
        if (spec.receiveBufferBytes() > 0) {
            s.options().receiveBuffer(spec.receiveBufferBytes());
        }
    }

    /** @throws TransferException when an end's SO_BINDTODEVICE does not read back as the spec's interface */
    private static void checkBound(PingPongSpec spec, NativeSocket c, NativeSocket s)
            throws NativeSocketException, TransferException {
        if (spec.bindToDevice().isEmpty()) {
            return;
        }
        for (NativeSocket x : List.of(c, s)) {
            Optional<String> bound = BindToDevice.read(x);
            if (!bound.equals(spec.bindToDevice())) {
                throw new TransferException("bindtodev " + spec.bindToDevice().get() + ": " + x
                        + " reads back as bound to " + bound.orElse("no interface"), null);
            }
        }
    }

    private static AppliedOptions options(PingPongSpec spec, NativeSocket c, boolean ip) throws NativeSocketException {
        SocketOptions o = c.options();
        return new AppliedOptions(spec.trafficClass(), ip ? o.trafficClass() : 0, spec.sendBufferBytes(),
                o.sendBuffer(), spec.receiveBufferBytes(), o.receiveBuffer(), spec.noDelay(), false);
    }

    private static void closeAll(List<NativeSocket> opened) {
        for (NativeSocket s : opened) {
            try {
                s.close();
            } catch (NativeSocketException ignored) {
                // close(2) releases the descriptor even when it reports an error
            }
        }
    }

    /** Closes both ends (each at most once). */
    @Override
    public void close() {
        client.close();
        server.close();
    }
}
