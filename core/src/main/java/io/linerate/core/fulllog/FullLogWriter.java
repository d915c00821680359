package io.linerate.core.fulllog;

import io.linerate.core.Idle;
import java.io.IOException;
import org.agrona.concurrent.IdleStrategy;
import org.jctools.queues.SpscArrayQueue;

/**
 * The writer thread's loop: takes full records from one queue, writes them, returns them empty
 * through the other, and idles with {@link Idle#BACKOFF} (parks of up to 1 ms) while there is
 * nothing to write. After a write error it keeps returning records unwritten, so the producer
 * is never starved by a broken file. It ends when stopped and the queue is empty, closing the sink.
 */
final class FullLogWriter implements Runnable {
    private final SpscArrayQueue<Chunk> filled;
    private final SpscArrayQueue<Chunk> free;
    private final ChunkSink sink;
    private volatile boolean stop;
    private volatile long written;
    private volatile Throwable failure;

    FullLogWriter(SpscArrayQueue<Chunk> filled, SpscArrayQueue<Chunk> free, ChunkSink sink) {
        this.filled = filled;
        this.free = free;
        this.sink = sink;
    }

    @Override
    public void run() {
        IdleStrategy idle = Idle.BACKOFF.newStrategy();
        long n = 0;
        try {
            while (true) {
                Chunk c = filled.relaxedPoll();
                if (c != null) {
                    if (failure == null) {
                        try {
                            sink.write(c.entries, c.count);
                            n += c.count;
                            written = n;
                        } catch (IOException | RuntimeException e) {
                            failure = e;
                        }
                    }
                    c.count = 0;
                    free.offer(c);
                    idle.reset();
                } else if (stop) {
                    // stop was set after the last hand-over, so an empty queue now stays empty
                    if (filled.isEmpty()) {
                        return;
                    }
                } else if (Thread.currentThread().isInterrupted()) {
                    return;
                } else {
                    idle.idle();
                }
            }
        } finally {
            closeSink();
        }
    }

    void stop() {
        stop = true;
    }

    void closeSink() {
        try {
            sink.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }

    long written() {
        return written;
    }

    Throwable failure() {
        return failure;
    }
}
