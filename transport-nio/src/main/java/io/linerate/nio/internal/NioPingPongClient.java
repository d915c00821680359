package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.PingPongClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Optional;

/**
 * The measuring end of a ping-pong whose echo end runs on a peer, on NIO: a TCP or UDP socket on the
 * spec's client muxer, running {@link PingPongRunner}'s sweep. The UDP socket is connected to the
 * echo end with {@link PingPongSpec#connect()}, and sends with sendto() without it.
 */
final class NioPingPongClient implements PingPongClient {
    private final PingPongSpec spec;
    private final boolean tcp;
    private final NetworkChannel channel;
    private Endpoint end;

    private NioPingPongClient(PingPongSpec spec, NetworkChannel channel) {
        this.spec = spec;
        this.tcp = spec.protocol() == PingPongProtocol.TCP;
        this.channel = channel;
    }

    static NioPingPongClient open(PingPongSpec spec, InetAddress local) throws IOException {
        boolean tcp = spec.protocol() == PingPongProtocol.TCP;
        if (!tcp && spec.protocol() != PingPongProtocol.UDP) {
            throw new IllegalArgumentException("a ping-pong with a peer runs tcp or udp, not " + spec.protocol().label());
        }
        NetworkChannel ch = tcp ? SocketChannel.open(Sockets.protocolFamily(spec.family()))
                : DatagramChannel.open(Sockets.protocolFamily(spec.family()));
        try {
            Sockets.apply(ch, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), tcp,
                    spec.noDelay());
            ch.bind(new InetSocketAddress(local, 0));
            return new NioPingPongClient(spec, ch);
        } catch (IOException | RuntimeException e) {
            Resources.closeQuietly(List.of(ch));
            throw e;
        }
    }

    @Override
    public int localPort() throws IOException {
        return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    }

    @Override
    public void connect(InetSocketAddress echo, long timeoutMillis) throws IOException {
        if (end != null) {
            throw new IllegalStateException("the ping-pong client is connected once");
        }
        if (channel instanceof SocketChannel s) {
            s.socket().connect(echo, (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis)));
            end = Endpoint.open("linerate-pingpong-client", s, s, false, spec.clientMuxer(),
                    spec.idleOf(spec.clientMuxer()), spec.timeout().toNanos());
        } else {
            DatagramChannel d = (DatagramChannel) channel;
            if (spec.connect()) {
                d.connect(echo);
                end = Endpoint.open("linerate-pingpong-client", d, d, true, spec.clientMuxer(),
                        spec.idleOf(spec.clientMuxer()), spec.timeout().toNanos());
            } else {
                // sfnt-pingpong without --connect: sendto() the echo end, take its answers from receive()
                end = Endpoint.openUnconnected("linerate-pingpong-client", d, echo, spec.clientMuxer(),
                        spec.idleOf(spec.clientMuxer()), spec.timeout().toNanos());
            }
        }
    }

    @Override
    public AppliedOptions options() throws IOException {
        InetAddress local = ((InetSocketAddress) channel.getLocalAddress()).getAddress();
        return new AppliedOptions(spec.trafficClass(), channel.getOption(StandardSocketOptions.IP_TOS),
                spec.sendBufferBytes(), Sockets.appliedBuffer(channel, StandardSocketOptions.SO_SNDBUF),
                spec.receiveBufferBytes(), Sockets.appliedBuffer(channel, StandardSocketOptions.SO_RCVBUF),
                spec.noDelay(), tcp && channel.getOption(StandardSocketOptions.TCP_NODELAY),
                tcp ? SocketMss.ofEnd(spec.family(), (SocketChannel) channel) : Optional.empty());
    }

    @Override
    public PingPongResult run(Clock clock, RunFacts facts, AppliedOptions options, long[] roundTrips)
            throws TransferException {
        if (end == null) {
            throw new IllegalStateException("the ping-pong client runs once connected to its echo end");
        }
        Endpoint e = end;
        end = null;
        try {
            return PingPongRunner.runAgainst(spec, clock, facts, e, options, roundTrips);
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        Resources.closeQuietly(java.util.Arrays.asList(end, channel));
        end = null;
    }
}
