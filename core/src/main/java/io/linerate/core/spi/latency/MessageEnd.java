package io.linerate.core.spi.latency;

import io.linerate.core.spi.tcp.TcpInfoSources;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * One end of a ping-pong link as the sweep and the echo server drive it. Reads and writes return a
 * status instead of throwing for the expected outcomes (timeout, end of stream, stop) and allocate
 * nothing. Used by one thread, except {@link #requestStop()}.
 */
public interface MessageEnd extends AutoCloseable {
    /** The operation completed. */
    int OK = 0;
    /** The deadline passed first. */
    int TIMEOUT = 1;
    /** The peer closed its end (streams and pipes). */
    int EOF = 2;
    /** {@link #requestStop()} was called. */
    int STOPPED = 3;
    /** Deadline meaning "wait until stopped". */
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Reads into {@code buf} from its position: one datagram, or for streams all of {@code buf}'s
     * remaining bytes ({@code whole}) or at least one byte.
     *
     * @param deadlineNanos {@link System#nanoTime()} reading to give up at, or {@link #NO_DEADLINE}
     * @return {@link #OK}, {@link #TIMEOUT}, {@link #EOF} or {@link #STOPPED}
     * @throws IOException when the socket fails
     */
    int read(ByteBuffer buf, long deadlineNanos, boolean whole) throws IOException;

    /**
     * Writes all of {@code buf}'s remaining bytes (one datagram for datagram ends).
     *
     * @param deadlineNanos {@link System#nanoTime()} reading to give up at
     * @return {@link #OK}, {@link #TIMEOUT} or {@link #STOPPED}
     * @throws IOException when the socket fails, such as a peer that closed
     */
    int write(ByteBuffer buf, long deadlineNanos) throws IOException;

    /**
     * The echo server's step: reads one message into {@code buf} from index 0 (one datagram, or at
     * least one byte of a stream) and writes it back whole. An end may do both in one call into its
     * transport; this default reads with {@link #read} and writes with {@link #write}.
     *
     * @param buf the buffer, cleared first; its capacity is the longest message taken
     * @param timeoutNanos the longest wait for room to send the answer, ns
     * @return {@link #OK} with {@code buf}'s limit at the message's length, {@link #TIMEOUT} when the
     *     answer could not be sent in time, {@link #EOF} or {@link #STOPPED}
     * @throws IOException when the socket fails
     */
    default int echo(ByteBuffer buf, long timeoutNanos) throws IOException {
        buf.clear();
        int s = read(buf, NO_DEADLINE, false);
        if (s != OK) {
            return s;
        }
        buf.flip();
        return write(buf, System.nanoTime() + timeoutNanos);
    }

    /**
     * Whether this end stamps the time right around its own system calls, so that a round trip is
     * timed from just before the send(2) of a message to just after the recv(2) that completed its
     * answer, as sockperf times its own, leaving out the calls' way between Java and the kernel. The
     * stamps read the clock of {@link System#nanoTime()}.
     *
     * @return false unless the end implements {@link #sendStartNanos()} and {@link #receiveEndNanos()}
     */
    default boolean stampsCalls() {
        return false;
    }

    /**
     * @return the {@link System#nanoTime()} reading taken right before the first system call of the
     *     last {@link #write}, ns
     * @throws UnsupportedOperationException unless {@link #stampsCalls()}
     */
    default long sendStartNanos() {
        throw new UnsupportedOperationException("this end does not stamp its calls");
    }

    /**
     * @return the {@link System#nanoTime()} reading taken right after the system call that completed
     *     the last {@link #read} that returned {@link #OK}, ns
     * @throws UnsupportedOperationException unless {@link #stampsCalls()}
     */
    default long receiveEndNanos() {
        throw new UnsupportedOperationException("this end does not stamp its calls");
    }

    /**
     * Prepares reads of this end's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}); reads
     * nothing yet. The reader is used by one thread at a time, which need not be the end's.
     *
     * @return for a TCP end, a reader of its connection or why none can read it (no TCP_INFO source,
     *     no native layer); empty for an end that is not a TCP socket (UDP, Unix, pipe), which has no
     *     {@code TCP_INFO}
     */
    default Optional<TcpInfoSources.Found> tcpInfo() {
        return Optional.empty();
    }

    /** Asks current and future waits to end with {@link #STOPPED}, releasing a blocked call. Thread-safe. */
    void requestStop();

    /** Releases the end's sockets and whatever else it holds; never throws. */
    @Override
    void close();
}
