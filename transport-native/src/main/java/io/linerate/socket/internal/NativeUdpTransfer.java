package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.IntervalListener;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.UdpSocketDrops;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A UDP stream between two native sockets of this JVM on the loopback address of the spec's
 * family, on core's {@link StreamEngine}: the receiver bound to the spec's port, the sender to an
 * ephemeral one, each connected to the other so that it only sees the other's datagrams. The
 * loops ({@link UdpSender}, {@link UdpReceiver}) follow the spec's {@link io.linerate.core.StreamIo}
 * (one call per datagram, {@code sendmmsg(2)}/{@code recvmmsg(2)} batches, UDP GSO and GRO), and
 * the result carries the {@link DataPath} of both ends. The sender's traffic class and SO_SNDBUF
 * and the receiver's SO_RCVBUF are set before the bind and read back after it; both ends are open
 * once constructed.
 */
public final class NativeUdpTransfer implements Transfer {
    private static final Logger LOG = LoggerFactory.getLogger(NativeUdpTransfer.class);

    private final TransferSpec spec;
    private final Clock clock;
    private final NativeSocket tx;
    private final NativeSocket rx;
    private final AppliedOptions options;
    private final UdpSender sender;
    private final UdpReceiver receiver;
    private final TransferLife life = new TransferLife();

    private NativeUdpTransfer(TransferSpec spec, Clock clock, NativeSocket tx, NativeSocket rx, AppliedOptions options,
                              UdpSender sender, UdpReceiver receiver) {
        this.spec = spec;
        this.clock = clock;
        this.tx = tx;
        this.rx = rx;
        this.options = options;
        this.sender = sender;
        this.receiver = receiver;
    }

    /**
     * Binds and connects both sockets and, with {@code gso}, sets {@code UDP_SEGMENT} and
     * {@code UDP_GRO}.
     *
     * @throws TransferException naming the call and the errno (a port in use is a usage error), or
     *     why the kernel refuses {@code --gso}; nothing is left open
     */
    public static NativeUdpTransfer open(TransferSpec spec, Clock clock) throws TransferException {
        InetAddress lo = spec.family().loopbackAddress();
        NativeSocket tx = null;
        NativeSocket rx = null;
        try {
            rx = NativeSocket.udp(spec.family());
            if (spec.receiveBufferBytes() > 0) {
                rx.options().receiveBuffer(spec.receiveBufferBytes());
            }
            rx.bind(lo, spec.port());
            tx = NativeSocket.udp(spec.family());
            tx.options().trafficClass(spec.trafficClass());
            if (spec.sendBufferBytes() > 0) {
                tx.options().sendBuffer(spec.sendBufferBytes());
            }
            tx.bind(lo, 0);
            tx.connect(lo, rx.localPort(), TcpLoops.POLL_MILLIS);
            rx.connect(lo, tx.localPort(), TcpLoops.POLL_MILLIS);
            AppliedOptions options = new AppliedOptions(spec.trafficClass(), tx.options().trafficClass(),
                    spec.sendBufferBytes(), tx.options().sendBuffer(), spec.receiveBufferBytes(),
                    rx.options().receiveBuffer(), spec.noDelay(), false);
            UdpSender sender = UdpSender.of(spec, tx);
            UdpReceiver receiver = UdpReceiver.of(spec, rx);
            LOG.debug("opened {} on native sockets: {}", spec, options);
            return new NativeUdpTransfer(spec, clock, tx, rx, options, sender, receiver);
        } catch (IOException e) {
            closeQuietly(tx);
            closeQuietly(rx);
            boolean portInUse = e instanceof NativeSocketException n && n.errno() == Errno.EADDRINUSE;
            throw new TransferException("cannot set up the UDP transfer on " + lo.getHostAddress() + ": " + e.getMessage(),
                    e, portInUse);
        } catch (RuntimeException e) {
            closeQuietly(tx);
            closeQuietly(rx);
            throw e;
        }
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    /**
     * @return the engine's result with the {@link DataPath} of both ends
     * @throws IllegalStateException when run a second time or after {@link #close()}
     */
    @Override
    public TransferResult run(IntervalListener listener) throws TransferException {
        life.run();
        StreamEngine engine = new StreamEngine(spec, clock, sender::run, receiver::run);
        TransferResult r = engine.run(options, listener);
        // the loops ended and the sockets are still open: the receiving socket's drops over the whole transfer
        r = r.withReceiverSocketDrops(socketDrops(rx, spec.family().loopbackAddress()));
        DataPath.End unrun = new DataPath.End("none", 0, 0, 0);
        return r.withDataPath(DataPath.of(sender.dataPathEnd().orElse(unrun), receiver.dataPathEnd().orElse(unrun),
                spec.io()));
    }

    /**
     * @param socket an open UDP socket bound to {@code bound}
     * @param bound the address it was bound to
     * @return its drops since it was created ({@link UdpSocketDrops}); -1 when unknown
     */
    static long socketDrops(NativeSocket socket, InetAddress bound) {
        try {
            UdpSocketDrops.Reading d = UdpSocketDrops.of(new InetSocketAddress(bound, socket.localPort()));
            if (!d.known()) {
                LOG.debug("receiving socket drops unknown: {}", d.unknownReason());
            }
            return d.drops();
        } catch (IOException e) {
            LOG.debug("receiving socket drops unknown: {}", e.toString());
            return -1;
        }
    }

    @Override
    public void close() {
        if (life.close()) {
            closeQuietly(tx);
            closeQuietly(rx);
            LOG.debug("closed {}", spec);
        }
    }

    private static void closeQuietly(NativeSocket s) {
        if (s == null) {
            return;
        }
        try {
            s.close();
        } catch (NativeSocketException ignored) {
            // close(2) releases the descriptor even when it reports an error
        }
    }
}
