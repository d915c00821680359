package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.ControlBeats;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Reads the one control message the agent sends while a stream runs (its {@code result}, or why it
 * ended: {@code stopped}, {@code error}) on a thread of its own, so that a client end learns at once
 * when the agent stopped or went away (the control connection reached its end or was reset), not
 * only when its own end finishes. Anything but a {@code result} runs {@code onTrouble}, which aborts
 * the client's end.
 *
 * <p>With a silence limit (the agent beats, {@link ControlBeats}), beats are read and passed over,
 * and a connection on which nothing at all arrived for the limit fails the watch with
 * {@link SilentPath}: the path to the agent is black-holed, and the client's ends stop within their
 * I/O timeout of silence, a UDP sender too, which counts nothing from its receiver.
 */
final class ControlWatch {
    private final Control control;
    private final Runnable onTrouble;
    private final long silenceMillis;
    private final CountDownLatch over = new CountDownLatch(1);
    private final Thread thread;
    private volatile JsonNode message;
    private volatile IOException failure;

    /** Nothing at all, not even a beat, arrived on the control connection for the silence limit. */
    static final class SilentPath extends SocketTimeoutException {
        SilentPath(long millis) {
            super("nothing from the agent for the I/O timeout of " + millis + " ms, not even a beat: the path is silent");
        }
    }

    /**
     * @param control the control connection; nothing else reads it until {@link #await} returned
     * @param timeoutMillis bound on the wait for the message, ms
     * @param silenceMillis the longest the connection may be silent when the agent beats, ms; 0 when
     *     it does not (then beats are not expected and silence is only bounded by {@code timeoutMillis})
     * @param onTrouble run on the watch's thread when the message is not a {@code result} or the read failed
     */
    ControlWatch(Control control, int timeoutMillis, long silenceMillis, Runnable onTrouble) {
        this.control = control;
        this.onTrouble = onTrouble;
        this.silenceMillis = silenceMillis;
        this.thread = new Thread(() -> watch(timeoutMillis), "linerate-control-watch");
        this.thread.setDaemon(true);
    }

    ControlWatch start() {
        thread.start();
        return this;
    }

    private void watch(int timeoutMillis) {
        try {
            JsonNode m = next(System.nanoTime() + timeoutMillis * 1_000_000L, timeoutMillis);
            message = m;
            if (!m.get("type").asText().equals("result")) {
                onTrouble.run();
            }
        } catch (IOException e) {
            failure = e;
            onTrouble.run();
        } finally {
            over.countDown();
        }
    }

    /** @return the next message that is not a beat, read before {@code deadline} (a {@link System#nanoTime()} reading) */
    private JsonNode next(long deadline, int timeoutMillis) throws IOException {
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new SocketTimeoutException("no control message from the agent within " + timeoutMillis + " ms");
            }
            boolean bySilence = silenceMillis > 0 && silenceMillis < left;
            control.timeout((int) Math.min(Integer.MAX_VALUE, bySilence ? silenceMillis : left));
            JsonNode m;
            try {
                m = control.receive();
            } catch (SocketTimeoutException e) {
                if (bySilence) {
                    throw new SilentPath(silenceMillis);
                }
                throw e;
            }
            if (!m.get("type").asText().equals(ControlBeats.TYPE)) {
                return m;
            }
        }
    }

    /** @return the agent's {@code result} message when it has arrived, else null; never blocks */
    JsonNode resultNow() {
        JsonNode m = message;
        return m != null && m.get("type").asText().equals("result") ? m : null;
    }

    /** @return whether the message arrived or the read failed */
    boolean over() {
        return over.getCount() == 0;
    }

    /** @return why the read failed (the agent went away, a timeout), or null */
    IOException failure() {
        return failure;
    }

    /** @return the message, or null when the read failed */
    JsonNode message() {
        return message;
    }

    /**
     * @param millis the longest to wait, ms
     * @return the message
     * @throws IOException when the read failed, or nothing arrived within {@code millis}
     */
    JsonNode await(long millis) throws IOException {
        try {
            if (!over.await(millis, TimeUnit.MILLISECONDS)) {
                throw new SocketTimeoutException("no control message from the agent within " + millis + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the agent's control message", e);
        }
        if (failure != null) {
            throw failure;
        }
        return message;
    }
}
