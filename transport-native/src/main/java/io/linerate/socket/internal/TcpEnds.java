package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.SocketOptions;
import java.net.InetAddress;
import java.util.Optional;

/**
 * A connected pair of native TCP sockets on the loopback address of the spec's family. Options
 * that must precede the connection (SO_RCVBUF on the listener for window scaling; SO_SNDBUF,
 * IP_TOS/IPV6_TCLASS and TCP_NODELAY on the sender) are set before it and read back after it, and
 * the MSS is read at both ends ({@code TCP_MAXSEG}).
 */
final class TcpEnds implements AutoCloseable {
    final NativeSocket sender;
    final NativeSocket receiver;
    final AppliedOptions options;

    private TcpEnds(NativeSocket sender, NativeSocket receiver, AppliedOptions options) {
        this.sender = sender;
        this.receiver = receiver;
        this.options = options;
    }

    /**
     * Binds, connects and accepts, each wait bounded by the spec's I/O timeout.
     *
     * @throws TransferException naming the call and the errno; a port in use is a usage error. Nothing is left open.
     */
    static TcpEnds open(TransferSpec spec) throws TransferException {
        InetAddress lo = spec.family().loopbackAddress();
        int timeout = (int) Math.min(Integer.MAX_VALUE, spec.ioTimeout().toMillis());
        NativeSocket tx = null;
        NativeSocket rx = null;
        try (NativeSocket listener = NativeSocket.tcp(spec.family())) {
            if (spec.receiveBufferBytes() > 0) {
                listener.options().receiveBuffer(spec.receiveBufferBytes());
            }
            listener.bindAndListen(lo, spec.port(), 1);
            tx = NativeSocket.tcp(spec.family());
            tx.options().noDelay(spec.noDelay());
            tx.options().trafficClass(spec.trafficClass());
            if (spec.sendBufferBytes() > 0) {
                tx.options().sendBuffer(spec.sendBufferBytes());
            }
            tx.connect(lo, listener.localPort(), timeout);
            rx = listener.accept(timeout);
            SocketOptions to = tx.options();
            AppliedOptions options = new AppliedOptions(spec.trafficClass(), to.trafficClass(), spec.sendBufferBytes(),
                    to.sendBuffer(), spec.receiveBufferBytes(), rx.options().receiveBuffer(), spec.noDelay(),
                    to.noDelay(), Optional.of(mss(tx, rx)));
            return new TcpEnds(tx, rx, options);
        } catch (NativeSocketException e) {
            closeQuietly(tx);
            closeQuietly(rx);
            throw new TransferException("cannot set up the TCP transfer on " + lo.getHostAddress() + ": " + e.getMessage(),
                    e, e.errno() == Errno.EADDRINUSE);
        } catch (RuntimeException e) {
            closeQuietly(tx);
            closeQuietly(rx);
            throw e;
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

    /**
     * @return the options as applied, with the MSS read again from both ends ({@code TCP_MAXSEG}):
     *     after a run, the MSS the connection settled on
     * @throws NativeSocketException naming getsockopt(TCP_MAXSEG) when it fails
     */
    AppliedOptions readOptions() throws NativeSocketException {
        AppliedOptions o = options;
        return new AppliedOptions(o.trafficClassRequested(), o.trafficClassApplied(), o.sendBufferRequested(),
                o.sendBufferApplied(), o.receiveBufferRequested(), o.receiveBufferApplied(), o.noDelayRequested(),
                o.noDelayApplied(), Optional.of(mss(sender, receiver)));
    }

    private static TcpMss mss(NativeSocket tx, NativeSocket rx) throws NativeSocketException {
        return TcpMss.read(tx.family(), tx.options().maxSegment(), rx.options().maxSegment(), "TCP_MAXSEG");
    }

    /** Closes both sockets; the first error is thrown after both were closed. */
    @Override
    public void close() throws NativeSocketException {
        try {
            sender.close();
        } finally {
            receiver.close();
        }
    }
}
