package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.EchoEnd;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.core.spi.ends.PingPongClient;
import io.linerate.core.spi.ends.RrServerEnd;
import io.linerate.core.spi.ends.RrServerSide;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.ends.StreamListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The native transport's ends for peers: TCP streams on native sockets ({@link PeerChannel}), with
 * the MSS read from this end's socket and a sending end's {@code TCP_INFO}, and UDP streams
 * ({@link UdpPeerChannel}); the agent's ends of a TCP or UDP ping-pong ({@link NativeEchoEnd}) and
 * of request/response ({@link NativeRrServer}); and this host's measuring ends of them: the
 * ping-pong client ({@link NativePingPongClient}) and the request/response flows ({@link NativeRrFlow}).
 */
public final class NativePeerEnds implements PeerEnds {
    private final String transport;

    /** @param transport the native transport's name, for messages */
    public NativePeerEnds(String transport) {
        this.transport = transport;
    }

    @Override
    public String transport() {
        return transport;
    }

    /**
     * @return empty: a UDP end moves datagrams in batches and with GSO/GRO ({@link UdpPeerChannel}),
     *     a TCP end sends with {@code sendfile(2)} and receives with {@code MSG_TRUNC}
     *     ({@link PeerChannel}), as the spec's io asks
     */
    @Override
    public Optional<String> ioRefusal(TransferSpec spec, boolean sending) {
        return Optional.empty();
    }

    /** @throws IOException naming the call that failed (socket, setsockopt, bind, listen) */
    @Override
    public StreamListener listenTcp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        return PeerListener.open(spec, local, sending);
    }

    /** @throws IOException naming the call that failed, or the connect that did not complete within the I/O timeout */
    @Override
    public StreamChannel connectTcp(TransferSpec spec, InetSocketAddress peer, boolean sending) throws IOException {
        return PeerChannel.connect(spec, peer, sending);
    }

    /** @throws IOException naming the call that failed (socket, setsockopt, bind) */
    @Override
    public StreamChannel bindUdp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        return UdpPeerChannel.bind(spec, local, sending);
    }

    /**
     * @throws IOException naming the call that failed (socket, setsockopt, bind, listen), a protocol
     *     other than TCP or UDP (a Unix-domain socket does not cross hosts), or a server muxer other
     *     than blocking
     */
    @Override
    public EchoEnd echo(PingPongSpec spec, InetAddress local) throws IOException {
        return NativeEchoEnd.open(spec, local);
    }

    /**
     * @throws IOException naming the call that failed (socket, setsockopt, bind), or a protocol other
     *     than TCP or UDP
     */
    @Override
    public PingPongClient pingPongClient(PingPongSpec spec, InetAddress local) throws IOException {
        return NativePingPongClient.open(spec, local);
    }

    /** @throws IOException naming the call that failed (socket, bind, listen), or a muxer other than selector */
    @Override
    public RrServerEnd rrServer(RrSpec spec, InetAddress local) throws IOException {
        return NativeRrServer.open(spec, local);
    }

    /**
     * @throws TransferException when a flow or the server fails or a wait overruns the timeout, or,
     *     as a usage error, for a muxer other than selector ({@link NativeRr#refusal})
     */
    @Override
    public RrResult runRr(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException {
        Optional<String> refused = NativeRr.refusal(spec);
        if (refused.isPresent()) {
            throw new TransferException(refused.get(), null, true);
        }
        return NativeRr.flows(spec, clock, facts, server);
    }
}
