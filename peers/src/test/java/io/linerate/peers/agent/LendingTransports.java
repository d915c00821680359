package io.linerate.peers.agent;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.Transport;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Two transports found through {@link java.util.ServiceLoader} in the peers' tests, neither of which
 * runs a measurement of its own (no pattern, so {@code Transports.select(null, spec)} never picks
 * them): {@link Lending} offers ends for peers, the NIO transport's, and writes down each end it
 * opened; {@link Endless} offers none.
 */
public final class LendingTransports {
    private LendingTransports() {}

    /** A transport that runs no measurement of its own: no pattern, every spec refused. */
    private abstract static class NoMeasurement implements Transport {
        @Override
        public Set<Pattern> patterns() {
            return EnumSet.noneOf(Pattern.class);
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return Optional.of("the " + name() + " transport runs no measurement");
        }

        @Override
        public Measurement open(MeasurementSpec spec, Clock clock) {
            throw new IllegalArgumentException(unsupportedReason(spec).orElseThrow());
        }
    }

    /** Offers the NIO transport's ends, writing down the kind of each end it opens. */
    public static final class Lending extends NoMeasurement {
        /** The name it is found by. */
        public static final String NAME = "lending";
        /** The ends opened through any instance, by kind ("listenTcp", "echo", ...), in order. */
        public static final List<String> OPENED = new CopyOnWriteArrayList<>();

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public Optional<PeerEnds> peerEnds() {
            return Optional.of(new Recording(Transports.byName("nio").peerEnds().orElseThrow()));
        }
    }

    /** Offers no ends for peers. */
    public static final class Endless extends NoMeasurement {
        /** The name it is found by. */
        public static final String NAME = "endless";

        @Override
        public String name() {
            return NAME;
        }
    }

    /** Delegates to other ends and writes down what it opened. */
    private record Recording(PeerEnds to) implements PeerEnds {
        @Override
        public String transport() {
            return Lending.NAME;
        }

        @Override
        public Optional<String> ioRefusal(TransferSpec spec, boolean sending) {
            return to.ioRefusal(spec, sending);
        }

        @Override
        public StreamListener listenTcp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
            Lending.OPENED.add("listenTcp");
            return to.listenTcp(spec, local, sending);
        }

        @Override
        public StreamChannel connectTcp(TransferSpec spec, InetSocketAddress peer, boolean sending) throws IOException {
            Lending.OPENED.add("connectTcp");
            return to.connectTcp(spec, peer, sending);
        }

        @Override
        public StreamChannel bindUdp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
            Lending.OPENED.add("bindUdp");
            return to.bindUdp(spec, local, sending);
        }

        @Override
        public EchoEnd echo(PingPongSpec spec, InetAddress local) throws IOException {
            Lending.OPENED.add("echo");
            return to.echo(spec, local);
        }

        @Override
        public PingPongClient pingPongClient(PingPongSpec spec, InetAddress local) throws IOException {
            Lending.OPENED.add("pingPongClient");
            return to.pingPongClient(spec, local);
        }

        @Override
        public RrServerEnd rrServer(RrSpec spec, InetAddress local) throws IOException {
            Lending.OPENED.add("rrServer");
            return to.rrServer(spec, local);
        }

        @Override
        public RrResult runRr(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException {
            Lending.OPENED.add("runRr");
            return to.runRr(spec, clock, facts, server);
        }
    }
}
