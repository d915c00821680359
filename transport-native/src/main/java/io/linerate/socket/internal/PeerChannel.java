package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.core.spi.engine.TcpProbe;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.SocketOptions;
import io.linerate.socket.PayloadFile;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One end's native TCP data socket of a stream whose other end runs on a peer. Options that must
 * precede the connection (SO_SNDBUF, IP_TOS/IPV6_TCLASS and TCP_NODELAY on a sending end; SO_RCVBUF
 * on a receiving end, on its listener when it accepts) are set before it and read back after it,
 * and the MSS is read from this end's socket ({@code TCP_MAXSEG}). The loops move bytes between the
 * socket and a direct buffer allocated when the channel opens, by address, so they allocate
 * nothing; every wait is a poll(2) of at most {@link #POLL_MILLIS}, so they see a stop request
 * within it. A sending end's {@code TCP_INFO} is read at the window's edges and after the run
 * ({@link #tcpStats()}). The spec's {@link io.linerate.core.StreamIo} picks the calls
 * ({@link TcpLoops}): a sending end with zero-copy send sends from a {@link PayloadFile} made when
 * the channel opens and closed with it; a receiving end with skip-receive-copy takes the bytes
 * with {@code MSG_TRUNC}. {@link #dataPathEnd()} says which, and how many calls moved payload.
 */
final class PeerChannel implements StreamChannel {
    /** Longest single poll(2) of a loop or an accept, ms. */
    static final int POLL_MILLIS = TcpLoops.POLL_MILLIS;
    /** Size of a receiving end's read buffer, bytes, as the loopback transfer's. */
    static final int RECEIVE_BUFFER_BYTES = NativeStreamTransfer.RECEIVE_BUFFER_BYTES;
    /** How {@link TcpMss.Read#how()} names an MSS that only this host's end read. */
    static final String THIS_END = "TCP_MAXSEG of this host's end";

    private final TransferSpec spec;
    private final NativeSocket socket;
    private final boolean sending;
    private final ByteBuffer buffer;
    private final RetransmitWindow retransmits;
    /** The payload for sendfile(2) at a sending end with zero-copy send; else null. */
    private final PayloadFile payloadFile;
    private final TcpCalls calls;
    private volatile boolean ran;

    /** @throws NativeSocketException when the payload file cannot be made; the caller closes the socket */
    private PeerChannel(TransferSpec spec, NativeSocket socket, boolean sending) throws NativeSocketException {
        this.spec = spec;
        this.socket = socket;
        this.sending = sending;
        this.buffer = ByteBuffer.allocateDirect(sending ? spec.payloadBytes() : RECEIVE_BUFFER_BYTES);
        this.retransmits = sending ? new RetransmitWindow(socket) : null;
        this.payloadFile = sending && spec.io().zeroCopySend() ? PayloadFile.of(buffer) : null;
        this.calls = sending ? TcpCalls.sender(spec.io()) : TcpCalls.receiver(spec.io());
    }

    /**
     * Connects to the peer's listener, bounded by the spec's I/O timeout.
     *
     * @throws NativeSocketException naming the call and the errno (ECONNREFUSED, ...), or the wait
     *     that ran out; nothing is left open
     */
    static PeerChannel connect(TransferSpec spec, InetSocketAddress peer, boolean sending) throws NativeSocketException {
        NativeSocket s = NativeSocket.tcp(PeerListener.family(peer.getAddress()));
        try {
            if (sending) {
                senderOptions(spec, s);
            } else if (spec.receiveBufferBytes() > 0) {
                s.options().receiveBuffer(spec.receiveBufferBytes());
            }
            int timeout = (int) Math.min(Integer.MAX_VALUE, spec.ioTimeout().toMillis());
            s.connect(peer.getAddress(), peer.getPort(), timeout);
            return new PeerChannel(spec, s, sending);
        } catch (NativeSocketException | RuntimeException e) {
            closeQuietly(s);
            throw e;
        }
    }

    /**
     * @param accepted a socket a listener accepted
     * @param from the only address a data connection may come from
     * @return the channel on {@code accepted}; null when it came from another address (it is closed)
     * @throws NativeSocketException when the socket cannot be set up; it is closed
     */
    static PeerChannel accepted(TransferSpec spec, NativeSocket accepted, InetAddress from, boolean sending)
            throws NativeSocketException {
        try {
            if (!accepted.peerAddress().equals(from)) {
                closeQuietly(accepted);
                return null;
            }
            if (sending) {
                senderOptions(spec, accepted);
            }
            return new PeerChannel(spec, accepted, sending);
        } catch (NativeSocketException | RuntimeException e) {
            closeQuietly(accepted);
            throw e;
        }
    }

    private static void senderOptions(TransferSpec spec, NativeSocket s) throws NativeSocketException {
        s.options().noDelay(spec.noDelay());
        s.options().trafficClass(spec.trafficClass());
        if (spec.sendBufferBytes() > 0) {
            s.options().sendBuffer(spec.sendBufferBytes());
        }
    }

    /** @throws UnsupportedOperationException always: a TCP data socket is connected when it opens */
    @Override
    public void connectUdp(InetSocketAddress peer) {
        throw new UnsupportedOperationException("a TCP data socket is connected when it is opened");
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

    /** Sends until the context's bound ({@link TcpLoops#send}). */
    private void send(SenderContext ctx) throws IOException {
        ran = true;
        TcpLoops.send(socket, NativeSocket.address(buffer), payloadFile, ctx, retransmits, calls);
    }

    /** Counts bytes until the end of the stream or a stop request ({@link TcpLoops#receive}). */
    private void receive(ReceiverContext ctx) throws IOException {
        TcpLoops.receive(socket, NativeSocket.address(buffer), RECEIVE_BUFFER_BYTES, ctx, calls);
    }

    /**
     * @return the options as the kernel applied them: a sending end's traffic class, SO_SNDBUF and
     *     TCP_NODELAY, a receiving end's SO_RCVBUF (the other figures read 0 or false), and the MSS
     *     this end's socket gives ({@code TCP_MAXSEG}, tcp(7)); only this end's is read here, so it
     *     stands for both ends' until the peer's is known
     * @throws NativeSocketException naming the getsockopt(2) that failed
     */
    @Override
    public AppliedOptions options() throws NativeSocketException {
        int mss = socket.options().maxSegment();
        Optional<TcpMss> read = Optional.of(TcpMss.read(socket.family(), mss, mss, THIS_END));
        if (sending) {
            SocketOptions o = socket.options();
            return new AppliedOptions(spec.trafficClass(), o.trafficClass(), spec.sendBufferBytes(), o.sendBuffer(),
                    spec.receiveBufferBytes(), 0, spec.noDelay(), o.noDelay(), read);
        }
        return new AppliedOptions(spec.trafficClass(), 0, spec.sendBufferBytes(), 0, spec.receiveBufferBytes(),
                socket.options().receiveBuffer(), spec.noDelay(), false, read);
    }

    /**
     * @return a sending end's {@code TCP_INFO} figures once its loop ran (the retransmits in the
     *     sender's window, the congestion window, RTT, pacing and delivery rates; the receiver's
     *     {@code tcpi_rcv_mss} is the peer's and reads -1); empty at a receiving end or before the run
     * @throws NativeSocketException naming getsockopt(TCP_INFO) when it fails
     */
    /** @return a sending end's per-interval reading of its socket's {@code TCP_INFO}; empty at a receiving end */
    @Override
    public Optional<TcpProbe> tcpProbe() {
        return sending ? Optional.of(new SenderTcpProbe(socket)) : Optional.empty();
    }

    @Override
    public Optional<TcpStats> tcpStats() throws NativeSocketException {
        return sending && ran ? Optional.of(retransmits.stats(-1L)) : Optional.empty();
    }

    /**
     * @return the call this end made ({@code send(2)} or {@code sendfile(2)}; {@code recv(2)}, or
     *     with {@code MSG_TRUNC}) and the calls that moved payload, segments = calls (a TCP call is
     *     one write or read of the stream), at most 1 per call; empty before the loop ran
     */
    @Override
    public Optional<DataPath.End> dataPathEnd() {
        return calls.end();
    }

    /**
     * Closes the socket and the payload file; idempotent.
     *
     * @throws NativeSocketException naming close(2) (the descriptors are released all the same)
     */
    @Override
    public void close() throws NativeSocketException {
        try (PayloadFile f = payloadFile) {
            socket.close();
        }
    }

    static void closeQuietly(NativeSocket s) {
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
