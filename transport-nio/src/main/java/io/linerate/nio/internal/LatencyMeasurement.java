package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.NioTransport;
import java.util.Objects;

/**
 * A ping-pong or request/response run opened by {@link NioTransport}: {@link #run()} sets up the
 * echo server or request/response server and the client ends, measures, and releases them all
 * before it returns or throws, so {@link #close()} has nothing left to release. The report's run
 * facts are this host's ({@link RunFacts#detect}), stating the spec as the options.
 */
public final class LatencyMeasurement implements Measurement {
    private final MeasurementSpec spec;
    private final Clock clock;
    private boolean ran;
    private boolean closed;

    private LatencyMeasurement(MeasurementSpec spec, Clock clock) {
        this.spec = spec;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param spec a {@link PingPongSpec} or an {@link RrSpec}
     * @param clock the time source of every reading
     * @return the measurement, ready to run
     * @throws IllegalArgumentException for a spec of another pattern
     */
    public static LatencyMeasurement of(MeasurementSpec spec, Clock clock) {
        if (!(spec instanceof PingPongSpec) && !(spec instanceof RrSpec)) {
            throw new IllegalArgumentException("a latency measurement runs ping-pong or request-response, not "
                    + spec.pattern().label());
        }
        return new LatencyMeasurement(spec, clock);
    }

    @Override
    public MeasurementSpec spec() {
        return spec;
    }

    /**
     * @return a {@link io.linerate.core.latency.PingPongResult} for a ping-pong spec, an
     *     {@link io.linerate.core.latency.RrResult} for a request/response spec
     */
    @Override
    public MeasurementResult run() throws TransferException {
        if (closed || ran) {
            throw new IllegalStateException("this " + spec.pattern().label() + " measurement has "
                    + (closed ? "been closed" : "already run") + "; open another one");
        }
        ran = true;
        RunFacts facts = RunFacts.detect(version(), spec.toString());
        if (spec instanceof PingPongSpec p) {
            return PingPongRunner.run(p, clock, facts, -1);
        }
        return RrRunner.run((RrSpec) spec, clock, facts);
    }

    /** Nothing to release: {@link #run()} releases every socket and thread before it returns. */
    @Override
    public void close() {
        closed = true;
    }

    private static String version() {
        String v = NioTransport.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
