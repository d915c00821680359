package io.linerate.core.spi.ends;

import io.linerate.core.Clock;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * Opens this host's ends of a measurement whose other end a peer runs. Each method opens sockets
 * that the returned end owns: closing the end releases them, and nothing is left open when a
 * method throws. Every blocking call an end makes is bounded by its spec's I/O timeout or by the
 * timeout it is given. Implementations are safe to call from any thread; each end is used by one
 * thread at a time.
 */
public interface PeerEnds {

    /** @return the name of the transport these ends run on, such as {@code nio} */
    String transport();

    /**
     * Whether this end can move a stream the way its {@link TransferSpec#io()} asks: a peer asks
     * before it opens its end, so that a path it lacks is refused, not run another way. A sending
     * end is asked for batches, GSO and zero-copy send; a receiving end for batches, GRO and
     * skip-receive-copy. By default an end makes one system call per datagram or write, with a copy
     * of the payload, so it refuses all of those (a batch of 1 is what it does); ends that run more
     * say so.
     *
     * @param spec the stream's spec
     * @param sending whether this end sends (else it receives)
     * @return why this end cannot run the io, naming the option and the transport; empty when it can
     */
    default Optional<String> ioRefusal(TransferSpec spec, boolean sending) {
        StreamIo io = spec.io();
        String asked = io.batch() > 1 ? "batch " + io.batch() : io.gso() ? "gso"
                : sending && io.zeroCopySend() ? "zerocopy (sendfile(2))"
                : !sending && io.skipReceiveCopy() ? "skip-rx-copy (MSG_TRUNC)" : null;
        if (asked == null) {
            return Optional.empty();
        }
        return Optional.of(asked + " is not on the " + transport() + " transport's " + (sending ? "sending" : "receiving")
                + " end: it makes one system call per datagram or write, with a copy of the payload");
    }

    /**
     * Listens for the peer's one TCP data connection of a stream on an ephemeral port.
     *
     * @param spec the stream's spec: its socket options, payload and I/O timeout
     * @param local the address to listen on, usually the control connection's local address
     * @param sending whether this end sends (else it receives)
     * @return the listener; {@link StreamListener#accept} gives the connected end
     * @throws IOException when the socket cannot be opened or bound
     */
    StreamListener listenTcp(TransferSpec spec, InetAddress local, boolean sending) throws IOException;

    /**
     * Connects a TCP data socket of a stream to the peer's listener, bounded by the spec's I/O timeout.
     *
     * @param spec the stream's spec
     * @param peer the peer's listener
     * @param sending whether this end sends (else it receives)
     * @return the connected end
     * @throws IOException when the connection is refused or does not complete within the I/O timeout
     */
    StreamChannel connectTcp(TransferSpec spec, InetSocketAddress peer, boolean sending) throws IOException;

    /**
     * Binds a UDP data socket of a stream to an ephemeral port of {@code local};
     * {@link StreamChannel#connectUdp} joins it to the peer's.
     *
     * @param spec the stream's spec
     * @param local the address to bind
     * @param sending whether this end sends (else it receives)
     * @return the bound end
     * @throws IOException when the socket cannot be opened or bound
     */
    StreamChannel bindUdp(TransferSpec spec, InetAddress local, boolean sending) throws IOException;

    /**
     * Opens the echo end of a TCP or UDP ping-pong: a TCP listener (backlog 1) or a UDP socket on an
     * ephemeral port of {@code local}, with the spec's socket options and its server muxer.
     *
     * @param spec the ping-pong's spec; its protocol is TCP or UDP
     * @param local the address to bind
     * @return the echo end, not yet connected
     * @throws IOException when the socket cannot be opened or bound
     * @throws IllegalArgumentException for a protocol other than TCP or UDP
     */
    EchoEnd echo(PingPongSpec spec, InetAddress local) throws IOException;

    /**
     * Opens the measuring end of a TCP or UDP ping-pong: a socket bound to an ephemeral port of
     * {@code local}, with the spec's socket options and its client muxer.
     *
     * @param spec the ping-pong's spec; its protocol is TCP or UDP
     * @param local the address to bind
     * @return the client end, not yet connected
     * @throws IOException when the socket cannot be opened or bound
     * @throws IllegalArgumentException for a protocol other than TCP or UDP
     */
    PingPongClient pingPongClient(PingPongSpec spec, InetAddress local) throws IOException;

    /**
     * Opens the server of a request/response run (netperf TCP_RR, TCP_CRR) on an ephemeral port of
     * {@code local}; it serves once {@link RrServerEnd#start started}.
     *
     * @param spec the run's spec: request and response sizes, TCP_NODELAY, polling
     * @param local the address to listen on
     * @return the server
     * @throws IOException when the listener cannot be opened or bound
     */
    RrServerEnd rrServer(RrSpec spec, InetAddress local) throws IOException;

    /**
     * Runs the flows of a request/response run against a server that is already serving, and
     * releases them before it returns.
     *
     * @param spec the run's spec
     * @param clock the time source of every reading
     * @param facts where the run took place, for the result
     * @param server the server's address and counts
     * @return the run's result; the server's counts are those {@link RrServerSide#finish} gives
     * @throws TransferException when a flow fails or the server's counts cannot be had
     */
    RrResult runRr(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException;
}
