package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.peers.agent.server.AgentLimits;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The test an iperf3 client asks for, read from its parameters object (iperf3's
 * {@code send_parameters}: {@code tcp}/{@code udp}, {@code time}, {@code omit}, {@code num},
 * {@code blockcount}, {@code parallel}, {@code reverse}, {@code bidirectional}, {@code len},
 * {@code bandwidth}, {@code pacing_timer}, {@code window}, {@code udp_counters_64bit},
 * {@code get_server_output}, and {@code interval} where a client sends it).
 *
 * @param udp UDP, else TCP
 * @param seconds test length, s (0: bounded by bytes or blocks, or unbounded)
 * @param omitSeconds seconds the client omits before the test proper
 * @param bytes total bytes of the test over all streams, 0 = none
 * @param blocks total writes or datagrams over all streams, 0 = none
 * @param parallel streams per direction
 * @param reverse the server sends
 * @param bidirectional both send, {@code parallel} streams each way
 * @param length bytes per write or datagram
 * @param rateBitsPerSecond target rate of each stream, bit/s; 0 = unlimited
 * @param pacingTimerMicros the sender's pacing timer, µs (iperf3's {@code --pacing-timer}; 1000 when not sent)
 * @param window socket buffer asked for, bytes; 0 = default
 * @param counters64 UDP sequence numbers are 64-bit
 * @param serverOutput the client wants the server's report ({@code --get-server-output})
 * @param interval the reporting interval of the server's interval lines: the client's
 *     {@code interval} in seconds (fractions allowed), 1 s when it sends none or 0
 */
record Iperf3TestParams(boolean udp, long seconds, long omitSeconds, long bytes, long blocks, int parallel, boolean reverse,
                        boolean bidirectional, int length, long rateBitsPerSecond, long pacingTimerMicros, int window,
                        boolean counters64, boolean serverOutput, Duration interval) {
    /** iperf3's error codes a refusal is sent with (iperf_api.h), so its client prints a fitting message. */
    static final int IE_DURATION = 5;
    static final int IE_NUMSTREAMS = 6;
    static final int IE_BLOCKSIZE = 7;
    static final int IE_UDPBLOCKSIZE = 20;
    static final int IE_TOTALRATE = 27;
    static final int IE_RECVPARAMS = 109;
    /** Largest UDP payload over IPv4. */
    static final int MAX_UDP_LENGTH = 65507;
    /** iperf3's default TCP write, 128 KiB, for a client that sends no {@code len}. */
    static final int DEFAULT_TCP_LENGTH = 128 * 1024;

    /** Why a test is refused: iperf3's error code for its client and a log line naming the limit. */
    record Refusal(int iperfErrno, String reason) {}

    /**
     * @param j the client's parameters object
     * @return the test, or a refusal for parameters that are not numbers where numbers are due
     */
    static Iperf3TestParams parse(JsonNode j) throws Iperf3Exception {
        boolean udp = j.has("udp");
        int defaultLength = udp ? 1460 : DEFAULT_TCP_LENGTH;
        return new Iperf3TestParams(udp, num(j, "time", 0), num(j, "omit", 0), num(j, "num", 0), num(j, "blockcount", 0),
                (int) Math.min(Integer.MAX_VALUE, num(j, "parallel", 1)), j.has("reverse"), j.has("bidirectional"),
                (int) Math.min(Integer.MAX_VALUE, num(j, "len", defaultLength)), num(j, "bandwidth", 0),
                num(j, "pacing_timer", Pace.DEFAULT_TIMER_MICROS),
                (int) Math.min(Integer.MAX_VALUE, num(j, "window", 0)), j.has("udp_counters_64bit"),
                j.has("get_server_output"), interval(j));
    }

    /** @return the client's {@code interval}, s, as a duration; 1 s when absent or 0 */
    private static Duration interval(JsonNode j) throws Iperf3Exception {
        JsonNode n = j.get("interval");
        if (n == null || (n.isNumber() && n.asDouble() == 0)) {
            return io.linerate.peers.internal.ServedIntervals.DEFAULT_INTERVAL;
        }
        if (!n.isNumber() || n.asDouble() < 0 || n.asDouble() > 86_400) {
            throw new Iperf3Exception("parameter 'interval' is " + n + "; expected seconds, 0..86400");
        }
        return Duration.ofNanos(Math.round(n.asDouble() * 1e9));
    }

    private static long num(JsonNode j, String field, long absent) throws Iperf3Exception {
        JsonNode n = j.get(field);
        if (n == null) {
            return absent;
        }
        if (!n.isIntegralNumber() || n.asLong() < 0) {
            throw new Iperf3Exception("parameter '" + field + "' is " + n + "; expected a whole number 0 or more");
        }
        return n.asLong();
    }

    /** @return streams the server opens: {@code parallel}, twice that for bidirectional */
    int streams() {
        return bidirectional ? 2 * parallel : parallel;
    }

    /** @return the test's time on the clock, omitted seconds included; zero when bounded otherwise */
    Duration duration() {
        return Duration.ofSeconds(seconds + omitSeconds);
    }

    /** @return why the server refuses this test under {@code limits}, naming the limit; empty when it is within them */
    Optional<Refusal> refusal(AgentLimits limits) {
        if (parallel < 1 || parallel > Iperf3Options.MAX_PARALLEL) {
            return Optional.of(new Refusal(IE_NUMSTREAMS, "parallel streams " + parallel + " is out of range; allowed: 1.."
                    + Iperf3Options.MAX_PARALLEL));
        }
        if (streams() > limits.maxStreams()) {
            return Optional.of(new Refusal(IE_NUMSTREAMS, streams() + " data streams"
                    + (bidirectional ? " (" + parallel + " each way)" : "") + " exceed the server's limit of "
                    + limits.maxStreams() + " a test (--max-streams)"));
        }
        int header = Iperf3DatagramHeader.bytes(counters64);
        if (udp && (length < header || length > MAX_UDP_LENGTH)) {
            return Optional.of(new Refusal(IE_UDPBLOCKSIZE, "datagram length " + length + " bytes is out of range; allowed: "
                    + header + ".." + MAX_UDP_LENGTH));
        }
        if (length < 1 || length > limits.maxPayloadBytes()) {
            return Optional.of(new Refusal(IE_BLOCKSIZE, "length " + length + " bytes exceeds the server's payload limit of "
                    + limits.maxPayloadBytes() + " bytes (--max-payload)"));
        }
        if (duration().compareTo(limits.maxDuration()) > 0) {
            return Optional.of(new Refusal(IE_DURATION, String.format(Locale.ROOT,
                    "omit + time %d s exceeds the server's duration limit of %d ms (--max-duration)",
                    seconds + omitSeconds, limits.maxDuration().toMillis())));
        }
        long max = limits.maxRateBitsPerSecond();
        if (max > 0) {
            long total = rateBitsPerSecond == 0 ? 0 : rateBitsPerSecond * streams();
            if (total == 0 || total > max || total / streams() != rateBitsPerSecond) {
                return Optional.of(new Refusal(IE_TOTALRATE, String.format(Locale.ROOT,
                        "rate %s over %d streams exceeds the server's rate limit of %d bit/s (--max-rate)",
                        rateBitsPerSecond == 0 ? "unlimited" : rateBitsPerSecond + " bit/s", streams(), max)));
            }
        }
        return Optional.empty();
    }
}
