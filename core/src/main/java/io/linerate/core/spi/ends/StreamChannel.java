package io.linerate.core.spi.ends;

import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.TcpStats;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.core.spi.engine.TcpProbe;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * One end's data socket of a stream whose other end runs on a peer: a connected TCP socket, or a UDP
 * socket that {@link #connectUdp} joins to the peer's. Options that must precede connect (SO_SNDBUF,
 * SO_RCVBUF, IP_TOS/IPV6_TCLASS, TCP_NODELAY) are set before it and read back after it.
 */
public interface StreamChannel extends Closeable {

    /**
     * Connects this UDP socket to the peer's, so that it only sees the peer's datagrams.
     *
     * @param peer the peer's UDP socket
     * @throws IOException when the socket cannot be connected
     * @throws UnsupportedOperationException on a TCP socket
     */
    void connectUdp(InetSocketAddress peer) throws IOException;

    /**
     * @return the local port of this socket, 1..65535
     * @throws IOException when the socket is closed
     */
    int localPort() throws IOException;

    /** @return this end's send loop on this socket, for {@link io.linerate.core.spi.engine.StreamEnd} */
    StreamEngine.SendLoop sendLoop();

    /** @return this end's receive loop on this socket, for {@link io.linerate.core.spi.engine.StreamEnd} */
    StreamEngine.ReceiveLoop receiveLoop();

    /**
     * @return this socket's options as requested and as the kernel applied them: the sending side's
     *     traffic class, SO_SNDBUF and TCP_NODELAY, the receiving side's SO_RCVBUF (the other figures
     *     read 0 or false), and for TCP the MSS on this end's path
     * @throws IOException when the socket is closed
     */
    AppliedOptions options() throws IOException;

    /**
     * The kernel's {@code TCP_INFO} of this end's sending socket, read once its send loop has ended,
     * for a transport that can read it (the receiving socket is the peer's, so
     * {@link TcpStats#receiverMss()} is -1 here).
     *
     * @return the figures of the run at a TCP sending end, or empty: a receiving end, UDP, a
     *     transport that cannot read them (this default), or a loop that has not run
     * @throws IOException when the socket's {@code TCP_INFO} cannot be read
     */
    default Optional<TcpStats> tcpStats() throws IOException {
        return Optional.empty();
    }

    /**
     * @return a sending TCP end's per-interval reading of its socket's {@code TCP_INFO}, for
     *     {@link io.linerate.core.spi.engine.StreamEnd#sender(io.linerate.core.TransferSpec,
     *     io.linerate.core.Clock, StreamEngine.SendLoop, TcpProbe)}; empty by default, at a receiving
     *     end, and where the transport cannot read it
     */
    default Optional<TcpProbe> tcpProbe() {
        return Optional.empty();
    }

    /**
     * @return the system call this end made and what its calls carried ({@link DataPath.End}),
     *     once its loop has run, for a transport that chooses among paths ({@link
     *     io.linerate.core.StreamIo}); empty by default and before the loop ran
     */
    default Optional<DataPath.End> dataPathEnd() {
        return Optional.empty();
    }

    /**
     * Datagrams this receiving UDP socket itself dropped since it was created (the kernel's
     * {@code sk_drops}, {@link io.linerate.core.spi.UdpSocketDrops}): over the whole stream when read
     * after its receive loop ended and before it is closed, which is when callers read it.
     *
     * @return the count, or -1 when unknown: a sending end, TCP, a transport that cannot read it
     *     (this default), another system than Linux
     */
    default long socketDrops() {
        return -1;
    }
}
