package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * One end's native UDP data socket of a stream whose other end runs on a peer, bound to an
 * ephemeral port and then connected to the peer's, so that it only sees the peer's datagrams.
 * Every datagram sent carries a {@link DatagramHeader} (as the nio transport's), which the
 * receiving end's {@link ReceiverContext#datagram} accounts: loss, reordering, duplicates, RFC 3550
 * jitter. A sending end's traffic class and SO_SNDBUF, a receiving end's SO_RCVBUF, are set before
 * the bind and read back after it. The loops move datagrams between the socket and a direct buffer
 * allocated when the channel opens, by address, so they allocate nothing; every wait is a poll(2)
 * of at most {@link PeerChannel#POLL_MILLIS}.
 */
final class UdpPeerChannel implements StreamChannel {
    /** Largest datagram a receive holds, bytes: the nio transport's. */
    static final int RECEIVE_BUFFER_BYTES = 65536;

    private final TransferSpec spec;
    private final NativeSocket socket;
    private final boolean sending;
    private final ByteBuffer buffer;

    private UdpPeerChannel(TransferSpec spec, NativeSocket socket, boolean sending) {
        this.spec = spec;
        this.socket = socket;
        this.sending = sending;
        this.buffer = ByteBuffer.allocateDirect(sending ? spec.payloadBytes() : RECEIVE_BUFFER_BYTES);
    }

    /**
     * @param local the address to bind; its family is the socket's
     * @throws NativeSocketException naming the call that failed; nothing is left open
     */
    static UdpPeerChannel bind(TransferSpec spec, InetAddress local, boolean sending) throws NativeSocketException {
        NativeSocket s = NativeSocket.udp(PeerListener.family(local));
        try {
            if (sending) {
                s.trafficClass(spec.trafficClass());
                if (spec.sendBufferBytes() > 0) {
                    s.sendBuffer(spec.sendBufferBytes());
                }
            } else if (spec.receiveBufferBytes() > 0) {
                s.receiveBuffer(spec.receiveBufferBytes());
            }
            s.bind(local, 0);
            return new UdpPeerChannel(spec, s, sending);
        } catch (NativeSocketException | RuntimeException e) {
            PeerChannel.closeQuietly(s);
            throw e;
        }
    }

    /** connect(2) of the UDP socket to the peer's, which returns at once. @throws NativeSocketException naming the errno */
    @Override
    public void connectUdp(InetSocketAddress peer) throws NativeSocketException {
        socket.connect(peer.getAddress(), peer.getPort(), PeerChannel.POLL_MILLIS);
    }

    @Override
    public int localPort() throws IOException {
        return socket.localPort();
    }

    @Override
    public StreamEngine.SendLoop sendLoop() {
        if (!sending) {
            throw new IllegalStateException("this end was opened to receive");
        }
        return this::send;
    }

    @Override
    public StreamEngine.ReceiveLoop receiveLoop() {
        if (sending) {
            throw new IllegalStateException("this end was opened to send");
        }
        return this::receive;
    }

    /**
     * Sends sequence-numbered, time-stamped datagrams until the context's bound.
     *
     * @throws IOException when a send fails (ECONNREFUSED after ICMP port unreachable from a peer
     *     that is gone), or makes no progress for the I/O timeout
     */
    private void send(SenderContext ctx) throws IOException {
        long address = NativeSocket.address(buffer);
        long stallNanos = ctx.ioTimeoutNanos();
        Clock clock = ctx.clock();
        int streamId = spec.streamId();
        int n;
        while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
            DatagramHeader.write(buffer, streamId, ctx.nextSequence(), clock.nanoTime(), ctx.phase());
            long waitingSince = System.nanoTime();
            while (true) {
                int w = socket.send(address, n, PeerChannel.POLL_MILLIS);
                if (w > 0) {
                    ctx.sent(w, true);
                    break;
                }
                if (ctx.stopRequested()) {
                    return;
                }
                if (System.nanoTime() - waitingSince > stallNanos) {
                    throw NativeSocketException.timedOut("send(fd " + socket.fd() + ") after " + ctx.bytesSent()
                            + " bytes", stallNanos / 1_000_000L);
                }
            }
        }
    }

    /** Accounts datagrams until told to stop. */
    private void receive(ReceiverContext ctx) throws IOException {
        long address = NativeSocket.address(buffer);
        while (!ctx.stopRequested()) {
            int r = socket.receive(address, RECEIVE_BUFFER_BYTES, PeerChannel.POLL_MILLIS);
            if (r > 0) {
                ctx.datagram(buffer, r);
            }
        }
    }

    /**
     * @return the options as the kernel applied them: a sending end's traffic class and SO_SNDBUF,
     *     a receiving end's SO_RCVBUF (the other figures read 0 or false); no MSS
     * @throws NativeSocketException naming the getsockopt(2) that failed
     */
    @Override
    public AppliedOptions options() throws NativeSocketException {
        if (sending) {
            return new AppliedOptions(spec.trafficClass(), socket.trafficClass(), spec.sendBufferBytes(),
                    socket.sendBuffer(), spec.receiveBufferBytes(), 0, spec.noDelay(), false);
        }
        return new AppliedOptions(spec.trafficClass(), 0, spec.sendBufferBytes(), 0, spec.receiveBufferBytes(),
                socket.receiveBuffer(), spec.noDelay(), false);
    }

    /** Closes the socket; idempotent. @throws NativeSocketException naming close(2) (the descriptor is released all the same) */
    @Override
    public void close() throws NativeSocketException {
        socket.close();
    }
}
