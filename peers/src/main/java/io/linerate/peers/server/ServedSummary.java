package io.linerate.peers.server;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A served test's whole count in one direction: what the server reports of it (to an iperf3
 * client in its results, to an iperf 2 UDP client in its report, to a linerate client in its
 * counters). Its interval lines' bytes, the omitted ones left out, add up to at most
 * {@link #bytes()}.
 *
 * @param test the test's number on this server ({@link ServedStart#test()})
 * @param sent whether the server sent this data; false when it received it
 * @param udp whether the test is UDP
 * @param nanos the time the count covers, ns
 * @param bytes payload bytes sent or received, as the server counts them
 * @param datagrams UDP: datagrams sent, or distinct datagrams received; 0 for TCP
 * @param lost UDP data received: datagrams the client sent that did not arrive; 0 otherwise or unknown
 * @param jitterNanos UDP data received: RFC 3550 interarrival jitter, ns; empty otherwise
 * @param end {@code done}, or why the test ended early
 */
public record ServedSummary(long test, boolean sent, boolean udp, long nanos, long bytes, long datagrams, long lost,
                            OptionalDouble jitterNanos, String end) {
    /** @throws NullPointerException for a null jitter or end */
    public ServedSummary {
        Objects.requireNonNull(jitterNanos, "jitterNanos");
        Objects.requireNonNull(end, "end");
    }

    /** The word {@link #end()} holds for a test that ran to its end. */
    public static final String DONE = "done";
}
