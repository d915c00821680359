package io.linerate.peers.iperf2;

import io.linerate.core.IntervalListener;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.RunOnce;

/**
 * A stream whose spec names an iperf 2 server ({@link Iperf2Peer}), as a transport opens it
 * through its peer protocol: run, it is one forward test of {@link Iperf2Client}, giving an {@link Iperf2Result} with
 * linerate's metrics and, for UDP, the server's report. Nothing is connected before
 * {@link #run(IntervalListener)}; the client closes its socket on every path.
 */
public final class Iperf2Stream implements Measurement {
    private final TransferSpec spec;
    private final Iperf2Peer peer;
    private final RunOnce life = new RunOnce("test");

    private Iperf2Stream(TransferSpec spec, Iperf2Peer peer) {
        this.spec = spec;
        this.peer = peer;
    }

    /**
     * @param spec a TCP or UDP spec whose endpoint is an {@link Iperf2Peer}
     * @return the test, not yet connected
     * @throws IllegalArgumentException when the endpoint is no {@link Iperf2Peer}
     */
    public static Iperf2Stream open(TransferSpec spec) {
        if (!(spec.endpoint() instanceof Iperf2Peer peer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not an iperf 2 server");
        }
        return new Iperf2Stream(spec, peer);
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
     * @param listener linerate's own count of each interval sent, on the calling thread
     * @throws Iperf2Exception when the server cannot be reached, or stops taking data or goes away mid-test
     */
    @Override
    public MeasurementResult run(IntervalListener listener) throws TransferException {
        life.begin();
        return Iperf2Client.run(peer.address().host(), peer.address().port(), spec,
                Iperf2HeaderVariant.valueOf(peer.header().name()), listener);
    }

    @Override
    public void close() {
        life.close();
    }
}
