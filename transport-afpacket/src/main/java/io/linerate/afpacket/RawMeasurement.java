package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.spi.Listening;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One raw transfer opened by {@link AfPacketTransport}: {@link #run()} is
 * {@link RawTransfer#run(RawTransferSpec, Clock, Consumer)}, which checks the interfaces, opens
 * the rings and sockets, sends, drains and releases everything it opened before it returns, on
 * every path. So {@link #close()} has nothing left to release; closed before it runs, the
 * measurement refuses to run. With a receiving end, {@link #whenListening} says when its rings are
 * open and the interface counters have their baseline.
 */
public final class RawMeasurement implements Measurement, Listening {
    private final RawTransferSpec spec;
    private final Clock clock;
    private final AtomicBoolean used = new AtomicBoolean();
    private volatile boolean closed;
    private volatile Consumer<RawInterval> intervals = i -> { };
    private volatile Runnable listening = () -> { };

    RawMeasurement(RawTransferSpec spec, Clock clock) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param listener receives one sample per interval, from the thread that calls {@link #run()};
     *     set it before the run
     * @return this
     */
    public RawMeasurement onInterval(Consumer<RawInterval> listener) {
        this.intervals = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * @param signal run once, from the thread that calls {@link #run()}, when the receiving end's rings
     *     are open and the interface counters have their baseline, before the run's clock starts;
     *     never in a run without a receiving end
     */
    @Override
    public void whenListening(Runnable signal) {
        this.listening = Objects.requireNonNull(signal, "signal");
    }

    @Override
    public RawTransferSpec spec() {
        return spec;
    }

    /**
     * @return what each end counted; see {@link RawTransfer#run(RawTransferSpec, Clock, Consumer)}
     * @throws TransferException when the run cannot start (an unknown or down interface, a frame
     *     that does not fit the MTU, steering refused: usage errors) or a socket cannot be set up
     * @throws IllegalStateException if called twice or after {@link #close()}
     */
    @Override
    public RawResult run() throws TransferException {
        if (closed) {
            throw new IllegalStateException("this raw measurement is closed; open another one to run again");
        }
        if (!used.compareAndSet(false, true)) {
            throw new IllegalStateException("this raw measurement has run; open another one to run again");
        }
        return RawTransfer.run(spec, clock, intervals, null, listening);
    }

    @Override
    public void close() {
        closed = true;
    }
}
