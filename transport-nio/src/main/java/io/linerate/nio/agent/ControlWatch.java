package io.linerate.nio.agent;

import com.fasterxml.jackson.databind.JsonNode;
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
 */
final class ControlWatch {
    private final Control control;
    private final Runnable onTrouble;
    private final CountDownLatch over = new CountDownLatch(1);
    private final Thread thread;
    private volatile JsonNode message;
    private volatile IOException failure;

    /**
     * @param control the control connection; nothing else reads it until {@link #await} returned
     * @param timeoutMillis bound on the wait for the message, ms
     * @param onTrouble run on the watch's thread when the message is not a {@code result} or the read failed
     */
    ControlWatch(Control control, int timeoutMillis, Runnable onTrouble) {
        this.control = control;
        this.onTrouble = onTrouble;
        this.thread = new Thread(() -> watch(timeoutMillis), "linerate-control-watch");
        this.thread.setDaemon(true);
    }

    ControlWatch start() {
        thread.start();
        return this;
    }

    private void watch(int timeoutMillis) {
        try {
            control.timeout(timeoutMillis);
            JsonNode m = control.receive();
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
