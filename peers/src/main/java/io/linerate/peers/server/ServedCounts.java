package io.linerate.peers.server;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A served test that has no data stream to report by intervals (linerate's ping-pong and
 * request/response), once it ended: the server's own counts over the whole test, and how it ended.
 *
 * @param test the test's number on this server ({@link ServedStart#test()})
 * @param nanos the time from the test's start report to its end, ns
 * @param counts the server's counts by name, in the map's order (copied): a ping-pong's
 *     {@link #ECHOES} and {@link #BYTES_ECHOED}, a request/response run's {@link #ACCEPTS} and
 *     {@link #SERVED}
 * @param end {@link ServedSummary#DONE}, or why the test ended early
 */
public record ServedCounts(long test, long nanos, Map<String, Long> counts, String end) {
    /** Reads the echo end answered: one per datagram, for TCP one per arrival of bytes. */
    public static final String ECHOES = "echoes";
    /** Bytes the echo end echoed. */
    public static final String BYTES_ECHOED = "bytes echoed";
    /** Connections the request/response server accepted. */
    public static final String ACCEPTS = "connections accepted";
    /** Responses the request/response server wrote in full. */
    public static final String SERVED = "responses served";

    /** @throws NullPointerException for null counts, a null name or count in them, or a null end */
    public ServedCounts {
        Objects.requireNonNull(end, "end");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(counts, "counts")));
        counts.forEach((name, count) -> {
            Objects.requireNonNull(name, "a count's name");
            Objects.requireNonNull(count, name);
        });
    }
}
