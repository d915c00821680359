package io.linerate.peers.iperf3;

import io.linerate.core.IntervalListener;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.PeerDirection;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.RunOnce;

/**
 * A stream whose spec names an iperf3 server ({@link Iperf3Peer}), as a transport opens it
 * through its peer protocol: run, it is one test of {@link Iperf3Client}, giving an {@link Iperf3Result} or, both
 * directions at once, an {@link Iperf3BidirResult}, each with linerate's metrics and the server's.
 * Nothing is connected before {@link #run(IntervalListener)}; the client closes every socket of the
 * test on every path.
 */
public final class Iperf3Stream implements Measurement {
    private final TransferSpec spec;
    private final Iperf3Peer peer;
    private final RunOnce life = new RunOnce("test");

    private Iperf3Stream(TransferSpec spec, Iperf3Peer peer) {
        this.spec = spec;
        this.peer = peer;
    }

    /**
     * @param spec a TCP or UDP spec whose endpoint is an {@link Iperf3Peer}
     * @return the test, not yet connected
     * @throws IllegalArgumentException when the endpoint is no {@link Iperf3Peer}
     */
    public static Iperf3Stream open(TransferSpec spec) {
        if (!(spec.endpoint() instanceof Iperf3Peer peer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not an iperf3 server");
        }
        return new Iperf3Stream(spec, peer);
    }

    /** @return the client options the peer asks for: direction, parallel streams, UDP counter width, TCP drain */
    public static Iperf3Options options(Iperf3Peer peer) {
        return new Iperf3Options(peer.direction() == PeerDirection.REVERSE, peer.parallel(), peer.udpCounters64Bit(),
                peer.tcpDrain());
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    @Override
    public MeasurementResult run() throws TransferException {
        return run(IntervalListener.NONE);
    }

    /**
     * @param listener linerate's own count of each interval, summed over the streams, as stream 0
     *     of its direction, on the calling thread
     * @throws Iperf3Exception when the server refuses, fails, stops or cannot be reached
     */
    @Override
    public MeasurementResult run(IntervalListener listener) throws TransferException {
        life.begin();
        String host = peer.address().host();
        int port = peer.address().port();
        return peer.direction() == PeerDirection.BOTH
                ? Iperf3Client.runBidir(host, port, spec, options(peer), listener)
                : Iperf3Client.run(host, port, spec, options(peer), listener);
    }

    @Override
    public void close() {
        life.close();
    }
}
