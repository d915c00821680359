package io.linerate.peers.server;

import io.linerate.core.IntervalSample;
import java.util.Objects;

/**
 * One reporting interval of one served test, in one direction.
 *
 * @param test the test's number on this server ({@link ServedStart#test()})
 * @param stream the stream's number within the test, from 1, or 0 for all its streams of this
 *     direction together
 * @param sent whether the server sent this data (the client's reverse test); false when it received it
 * @param udp whether the test is UDP: then {@code sample} holds datagrams, loss and, for data the
 *     server received, RFC 3550 jitter
 * @param sample the interval: its times in ns since the test's start, its payload bytes as the
 *     server counts them (iperf3 and iperf 2 count UDP headers in), and {@code omitted} for
 *     warm-up or iperf3's omit period
 */
public record ServedInterval(long test, int stream, boolean sent, boolean udp, IntervalSample sample) {
    /** @throws NullPointerException for a null sample */
    public ServedInterval {
        Objects.requireNonNull(sample, "sample");
    }
}
