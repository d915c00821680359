package io.linerate.core.spi;
import io.linerate.core.Measurement;

/**
 * A {@link Measurement} whose receiving end can say when it is open, so that a sender elsewhere (a
 * peer's agent, another process) starts no earlier: every frame or datagram that arrives from then
 * on is counted, and the receiving interface's own counters have their baseline. A measurement
 * without a receiving end never signals.
 */
public interface Listening {

    /**
     * @param signal run once, on the thread that runs the measurement, when its receiving end is
     *     open; set it before {@link Measurement#run()}
     */
    void whenListening(Runnable signal);
}
