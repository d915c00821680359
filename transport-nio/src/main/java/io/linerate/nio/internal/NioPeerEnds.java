package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.Idle;
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

/** The NIO transport's ends for peers: JDK channels with the stream engine's and latency runners' loops. */
public final class NioPeerEnds implements PeerEnds {
    private final String transport;

    /** @param transport the NIO transport's name, for messages */
    public NioPeerEnds(String transport) {
        this.transport = transport;
    }

    @Override
    public String transport() {
        return transport;
    }

    @Override
    public StreamListener listenTcp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        return PeerChannel.listenTcp(spec, local, sending);
    }

    @Override
    public StreamChannel connectTcp(TransferSpec spec, InetSocketAddress peer, boolean sending) throws IOException {
        return PeerChannel.connectTcp(spec, peer, sending);
    }

    @Override
    public StreamChannel bindUdp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        return PeerChannel.bindUdp(spec, local, sending);
    }

    @Override
    public EchoEnd echo(PingPongSpec spec, InetAddress local) throws IOException {
        return NioEchoEnd.open(spec, local);
    }

    @Override
    public PingPongClient pingPongClient(PingPongSpec spec, InetAddress local) throws IOException {
        return NioPingPongClient.open(spec, local);
    }

    @Override
    public RrServerEnd rrServer(RrSpec spec, InetAddress local) throws IOException {
        RrServer server = RrServer.open(spec.family(), local, spec.requestBytes(), spec.responseBytes(),
                spec.noDelay(), spec.pollingIdle().map(Idle::newStrategy).orElse(null));
        server.readTcpInfo(spec.crr());
        return server;
    }

    @Override
    public RrResult runRr(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException {
        return RrRunner.run(spec, clock, facts, server);
    }
}
