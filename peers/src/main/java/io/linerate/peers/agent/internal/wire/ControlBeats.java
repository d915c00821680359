package io.linerate.peers.agent.internal.wire;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Beats on the control connection while a stream runs: a {@code beat} message every
 * {@link #intervalMillis} ms, so that the far end hears from this end even while no data reaches
 * it (a UDP sender counts nothing from its receiver), and gives up on a path that has been silent
 * for its I/O timeout. The interval is a quarter of that timeout, so that three beats may be late
 * or lost before the far end gives up. A client asks for beats in its request ({@code beat_ms}); an
 * agent that knows them says so in its {@code ready} and beats too; either end ignores beats.
 */
public final class ControlBeats implements AutoCloseable {
    /** The field of a stream request and of its {@code ready} that turns beats on: the interval, ms. */
    public static final String FIELD = "beat_ms";
    /** The type of a beat message. */
    public static final String TYPE = "beat";

    private final ScheduledExecutorService timer;

    private ControlBeats(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    /**
     * @param ioTimeoutMillis the far end's silence limit, ms, at least 1
     * @return the beat interval for it: a quarter of it, at least 1 ms
     */
    public static long intervalMillis(long ioTimeoutMillis) {
        return Math.max(1, ioTimeoutMillis / 4);
    }

    /**
     * Starts beating on a thread of its own; a failed send ends the beats (the connection is gone,
     * which the reading side learns by itself).
     *
     * @param control the control connection; {@link Control#send} is safe beside other senders
     * @param intervalMillis ms between beats, at least 1
     */
    public static ControlBeats start(Control control, long intervalMillis) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "linerate-control-beat");
            t.setDaemon(true);
            return t;
        });
        ControlBeats beats = new ControlBeats(timer);
        timer.scheduleAtFixedRate(() -> {
            try {
                control.send(Control.message(TYPE));
            } catch (IOException e) {
                timer.shutdown();
            }
        }, 0, intervalMillis, TimeUnit.MILLISECONDS);
        return beats;
    }

    /** Stops the beats and waits at most 1 s for the beating thread to end. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
