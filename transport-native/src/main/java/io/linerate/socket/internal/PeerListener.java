package io.linerate.socket.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamListener;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Locale;

/**
 * A native TCP listener (backlog 1) on an ephemeral port, waiting for a peer's one data connection
 * of a stream. A receiving end's SO_RCVBUF is set on the listener, before any connection, so that
 * the accepted socket inherits it and its window scale (tcp(7)). {@link #accept} waits in slices of
 * {@link PeerChannel#POLL_MILLIS}; {@link #close} from another thread ends the wait at the next
 * slice and the descriptor is closed by whichever thread holds it last, never under a running call.
 */
final class PeerListener implements StreamListener {
    private final TransferSpec spec;
    private final NativeSocket listener;
    private final boolean sending;
    private boolean accepting;
    private boolean closeRequested;

    private PeerListener(TransferSpec spec, NativeSocket listener, boolean sending) {
        this.spec = spec;
        this.listener = listener;
        this.sending = sending;
    }

    /**
     * @param local the address to listen on; its family is the socket's
     * @param sending whether the accepted end sends
     * @throws NativeSocketException naming the call that failed; nothing is left open
     */
    static PeerListener open(TransferSpec spec, InetAddress local, boolean sending) throws NativeSocketException {
        NativeSocket s = NativeSocket.tcp(family(local));
        try {
            if (!sending && spec.receiveBufferBytes() > 0) {
                s.options().receiveBuffer(spec.receiveBufferBytes());
            }
            s.bindAndListen(local, 0, 1);
            return new PeerListener(spec, s, sending);
        } catch (NativeSocketException | RuntimeException e) {
            PeerChannel.closeQuietly(s);
            throw e;
        }
    }

    static AddressFamily family(InetAddress a) {
        return a instanceof Inet6Address ? AddressFamily.IPV6 : AddressFamily.IPV4;
    }

    /** @return the ephemeral port, 1..65535 @throws IOException when the listener is closed */
    @Override
    public int port() throws IOException {
        return listener.localPort();
    }

    /**
     * Accepts the data connection from {@code from}, bounded by the spec's I/O timeout, and closes
     * the listener; a connection from another address is closed and the wait goes on.
     *
     * @throws IOException when no connection from {@code from} came within the I/O timeout, the
     *     listener was closed meanwhile, or the accepted socket cannot be set up
     */
    @Override
    public PeerChannel accept(InetAddress from) throws IOException {
        long deadline = System.nanoTime() + spec.ioTimeout().toNanos();
        try {
            while (true) {
                NativeSocket c = acceptSlice();
                if (c != null) {
                    PeerChannel ch = PeerChannel.accepted(spec, c, from, sending);
                    if (ch != null) {
                        return ch;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException(String.format(Locale.ROOT,
                            "no TCP data connection from %s within the I/O timeout of %d ms",
                            from.getHostAddress(), spec.ioTimeout().toMillis()));
                }
            }
        } finally {
            close();
        }
    }

    /** @return a connection accepted within one slice, or null when the slice ran out */
    private NativeSocket acceptSlice() throws IOException {
        synchronized (this) {
            if (closeRequested) {
                throw new IOException("the TCP data listener was closed while it waited for the peer's connection");
            }
            accepting = true;
        }
        try {
            return listener.accept(PeerChannel.POLL_MILLIS);
        } catch (NativeSocketException e) {
            if (e.errno() == Errno.ETIMEDOUT) {
                return null;
            }
            throw e;
        } finally {
            synchronized (this) {
                accepting = false;
                if (closeRequested) {
                    PeerChannel.closeQuietly(listener);
                }
            }
        }
    }

    /** Closes the listener now, or, while another thread is in accept, as that slice returns; idempotent. */
    @Override
    public synchronized void close() {
        closeRequested = true;
        if (!accepting) {
            PeerChannel.closeQuietly(listener);
        }
    }
}
