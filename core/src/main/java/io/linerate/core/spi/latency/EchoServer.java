package io.linerate.core.spi.latency;

import io.linerate.core.TransferException;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The ping-pong echo server on its own daemon thread: reads what arrives (a datagram, or whatever
 * part of the stream is there) and writes it back, until the client closes, or it is stopped.
 * Waiting for the next message is unbounded by design (the client may be between sizes); every
 * write is bounded by the timeout. Allocation-free per message.
 */
public final class EchoServer implements AutoCloseable {
    private final MessageEnd end;
    private final long timeoutNanos;
    private final long answerLimit;
    private final Thread thread;
    private final int bufferBytes;
    private volatile long answered;
    private volatile long answeredBytes;
    private volatile Throwable failure;
    private final OptionalInt cpu;
    private final CountDownLatch pinned = new CountDownLatch(1);
    private volatile Optional<String> readBack = Optional.empty();
    private volatile TransferException pinFailure;

    /**
     * @param end the server's end of the link
     * @param bufferBytes at least the largest message
     * @param timeoutNanos bound of each write
     * @param answerLimit answers to give before reading on without answering (a server that stops
     *     answering, for tests); negative for no limit
     */
    public EchoServer(MessageEnd end, int bufferBytes, long timeoutNanos, long answerLimit) {
        this(end, bufferBytes, timeoutNanos, answerLimit, OptionalInt.empty());
    }

    /**
     * As {@link #EchoServer(MessageEnd, int, long, long)}, with the server thread pinned to {@code cpu}
     * ({@code --affinity}) before it serves.
     */
    public EchoServer(MessageEnd end, int bufferBytes, long timeoutNanos, long answerLimit, OptionalInt cpu) {
        this.cpu = cpu;
        this.end = end;
        this.bufferBytes = bufferBytes;
        this.timeoutNanos = timeoutNanos;
        this.answerLimit = answerLimit;
        this.thread = new Thread(this::serve, "linerate-pingpong-echo");
        this.thread.setDaemon(true);
    }

    /** Starts the thread. */
    public void start() {
        thread.start();
    }

    /**
     * Starts the thread and waits until it is pinned to its CPU, when it has one, so that no round
     * trip runs before it is.
     *
     * @param waitNanos the longest wait
     * @return the server thread's CPU set as read back once pinned; empty when it is not pinned
     * @throws TransferException when it cannot be pinned (see {@link Pinning#of}), or is not pinned within the wait
     */
    public Optional<String> startPinned(long waitNanos) throws TransferException {
        thread.start();
        if (cpu.isEmpty()) {
            return Optional.empty();
        }
        try {
            if (!pinned.await(waitNanos, TimeUnit.NANOSECONDS)) {
                throw new TransferException("the echo server's thread was not pinned to CPU " + cpu.getAsInt()
                        + " within " + waitNanos / 1_000_000L + " ms", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransferException("interrupted while the echo server's thread was pinned", e);
        }
        if (pinFailure != null) {
            throw pinFailure;
        }
        return readBack;
    }

    /** @return the server thread, for its allocation counter */
    public Thread thread() {
        return thread;
    }

    /** @return a reader of the server end's {@code TCP_INFO} ({@link MessageEnd#tcpInfo()}), for another thread */
    public Optional<TcpInfoSources.Found> tcpInfo() {
        return end.tcpInfo();
    }

    /** @return messages (or stream parts) echoed so far */
    public long answered() {
        return answered;
    }

    /** @return bytes echoed so far */
    public long answeredBytes() {
        return answeredBytes;
    }

    /** @return why the server ended early, or null */
    public Throwable failure() {
        return failure;
    }

    private void serve() {
        Pinning pin;
        try {
            pin = Pinning.of("server", cpu);
            readBack = pin.readBack();
        } catch (TransferException e) {
            pinFailure = e;
            return;
        } finally {
            pinned.countDown();
        }
        try (Pinning p = pin) {
            echo();
        }
    }

    private void echo() {
        ByteBuffer buf = ByteBuffer.allocateDirect(bufferBytes);
        long n = 0;
        long bytes = 0;
        try {
            while (true) {
                int s;
                if (answerLimit < 0) {
                    s = end.echo(buf, timeoutNanos);
                } else {
                    buf.clear();
                    s = end.read(buf, MessageEnd.NO_DEADLINE, false);
                    if (s != MessageEnd.OK) {
                        return;
                    }
                    if (n >= answerLimit) {
                        continue;
                    }
                    buf.flip();
                    s = end.write(buf, System.nanoTime() + timeoutNanos);
                }
                int size = buf.limit();
                if (s == MessageEnd.TIMEOUT) {
                    throw new IOException(String.format(Locale.ROOT,
                            "echo server could not send its answer within the timeout of %d ms after %d answers",
                            timeoutNanos / 1_000_000L, n));
                }
                if (s != MessageEnd.OK) {
                    return;
                }
                bytes += size;
                answeredBytes = bytes;
                answered = ++n;
            }
        } catch (Throwable e) {
            failure = e;
        }
    }

    /** Stops the server, closes its end and waits for the thread (bounded by the timeout). */
    @Override
    public void close() {
        end.requestStop();
        try {
            thread.join(Math.max(100, timeoutNanos / 1_000_000L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        end.close();
    }
}
