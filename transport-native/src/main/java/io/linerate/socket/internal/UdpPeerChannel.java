package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.DatagramHeader;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * One end's native UDP data socket of a stream whose other end runs on a peer, bound to an
 * ephemeral port and then connected to the peer's, so that it only sees the peer's datagrams.
 * Every datagram sent carries a {@link DatagramHeader} (as the nio transport's), which the
 * receiving end's {@link ReceiverContext#datagram} accounts: loss, reordering, duplicates, RFC 3550
 * jitter. A sending end's traffic class and SO_SNDBUF, a receiving end's SO_RCVBUF, are set before
 * the bind and read back after it. The loops ({@link UdpSender}, {@link UdpReceiver}) follow the
 * spec's {@link io.linerate.core.StreamIo}: one call per datagram, {@code sendmmsg(2)} and
 * {@code recvmmsg(2)} batches, or UDP GSO and GRO; they move datagrams between the socket and
 * direct buffers allocated when the channel opens, by address, so they allocate nothing; every
 * wait is a poll(2) of at most {@link PeerChannel#POLL_MILLIS}. {@link #dataPathEnd()} says which
 * calls ran and what they carried.
 */
final class UdpPeerChannel implements StreamChannel {
    private final TransferSpec spec;
    private final NativeSocket socket;
    private final InetAddress bound;
    private final boolean sending;
    private final UdpSender sender;
    private final UdpReceiver receiver;

    private UdpPeerChannel(TransferSpec spec, NativeSocket socket, InetAddress bound, boolean sending)
            throws IOException {
        this.spec = spec;
        this.socket = socket;
        this.bound = bound;
        this.sending = sending;
        this.sender = sending ? UdpSender.of(spec, socket) : null;
        this.receiver = sending ? null : UdpReceiver.of(spec, socket);
    }

    /**
     * @param local the address to bind; its family is the socket's
     * @throws IOException naming the call that failed, or why the kernel refuses {@code --gso}
     *     ({@code UDP_SEGMENT}, {@code UDP_GRO}); nothing is left open
     */
    static UdpPeerChannel bind(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        NativeSocket s = NativeSocket.udp(PeerListener.family(local));
        try {
            if (sending) {
                s.options().trafficClass(spec.trafficClass());
                if (spec.sendBufferBytes() > 0) {
                    s.options().sendBuffer(spec.sendBufferBytes());
                }
            } else if (spec.receiveBufferBytes() > 0) {
                s.options().receiveBuffer(spec.receiveBufferBytes());
            }
            s.bind(local, 0);
            return new UdpPeerChannel(spec, s, local, sending);
        } catch (IOException | RuntimeException e) {
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

    /** @return a receiving end's socket's drops since it was created; -1 at a sending end and when unknown */
    @Override
    public long socketDrops() {
        return sending ? -1 : NativeUdpTransfer.socketDrops(socket, bound);
    }

    @Override
    public StreamEngine.SendLoop sendLoop() {
        if (!sending) {
            throw new IllegalStateException("this end was opened to receive");
        }
        return sender::run;
    }

    @Override
    public StreamEngine.ReceiveLoop receiveLoop() {
        if (sending) {
            throw new IllegalStateException("this end was opened to send");
        }
        return receiver::run;
    }

    /** @return this end's calls ({@code send(2)}, {@code sendmmsg(2)}, ...) and what they carried, once its loop ran */
    @Override
    public Optional<DataPath.End> dataPathEnd() {
        return sending ? sender.dataPathEnd() : receiver.dataPathEnd();
    }

    /**
     * @return the options as the kernel applied them: a sending end's traffic class and SO_SNDBUF,
     *     a receiving end's SO_RCVBUF (the other figures read 0 or false); no MSS
     * @throws NativeSocketException naming the getsockopt(2) that failed
     */
    @Override
    public AppliedOptions options() throws NativeSocketException {
        if (sending) {
            return new AppliedOptions(spec.trafficClass(), socket.options().trafficClass(), spec.sendBufferBytes(),
                    socket.options().sendBuffer(), spec.receiveBufferBytes(), 0, spec.noDelay(), false);
        }
        return new AppliedOptions(spec.trafficClass(), 0, spec.sendBufferBytes(), 0, spec.receiveBufferBytes(),
                socket.options().receiveBuffer(), spec.noDelay(), false);
    }

    /** Closes the socket; idempotent. @throws NativeSocketException naming close(2) (the descriptor is released all the same) */
    @Override
    public void close() throws NativeSocketException {
        socket.close();
    }
}
