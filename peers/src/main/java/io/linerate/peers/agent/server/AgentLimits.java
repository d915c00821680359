package io.linerate.peers.agent.server;

import io.linerate.core.Bound;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.internal.wire.ParallelEnds;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * What an agent accepts: at most {@code maxSessions} at once, each stream at most
 * {@code maxDuration} of warm-up plus measured time, at most {@code maxRateBitsPerSecond} (0 = no
 * limit; with a limit, an unlimited rate is refused) and at most {@code maxPayloadBytes} per write
 * or datagram, and at most {@code maxStreams} data streams in one session ({@code --parallel}).
 *
 * @param maxSessions sessions served at once, 1..1024
 * @param maxDuration warm-up + duration of one stream, 1 ms..1 day
 * @param maxRateBitsPerSecond target rate, bit/s; 0 = no limit
 * @param maxPayloadBytes payload per write or datagram, bytes, at least 1
 * @param maxStreams data streams of one session, 1..{@value ParallelEnds#MAX_STREAMS}
 */
public record AgentLimits(int maxSessions, Duration maxDuration, long maxRateBitsPerSecond, int maxPayloadBytes,
                          int maxStreams) {
    /** Default {@code --max-sessions}. */
    public static final int DEFAULT_MAX_SESSIONS = 8;
    /** Default {@code --max-duration}. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofMinutes(10);
    /** Default {@code --max-payload}: 1 MiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;
    /** Default {@code --max-streams}: as many as a client may ask for. */
    public static final int DEFAULT_MAX_STREAMS = ParallelEnds.MAX_STREAMS;

    /** @throws IllegalArgumentException naming the value out of range */
    public AgentLimits {
        if (maxSessions < 1 || maxSessions > 1024) {
            throw new IllegalArgumentException("max sessions " + maxSessions + " is out of range; allowed: 1..1024");
        }
        if (maxDuration.toMillis() < 1 || maxDuration.compareTo(Bound.MAX_DURATION) > 0) {
            throw new IllegalArgumentException("max duration " + maxDuration.toMillis()
                    + " ms is out of range; allowed: 1 ms..1 day");
        }
        if (maxRateBitsPerSecond < 0) {
            throw new IllegalArgumentException("max rate " + maxRateBitsPerSecond
                    + " bit/s is out of range; allowed: 0 (no limit) or more");
        }
        if (maxPayloadBytes < 1) {
            throw new IllegalArgumentException("max payload " + maxPayloadBytes + " bytes is out of range; allowed: 1 or more");
        }
        if (maxStreams < ParallelEnds.MIN_STREAMS || maxStreams > ParallelEnds.MAX_STREAMS) {
            throw new IllegalArgumentException("max streams " + maxStreams + " is out of range; allowed: "
                    + ParallelEnds.MIN_STREAMS + ".." + ParallelEnds.MAX_STREAMS);
        }
    }

    /** Limits with the default {@code maxStreams}. */
    public AgentLimits(int maxSessions, Duration maxDuration, long maxRateBitsPerSecond, int maxPayloadBytes) {
        this(maxSessions, maxDuration, maxRateBitsPerSecond, maxPayloadBytes, DEFAULT_MAX_STREAMS);
    }

    /** @return the defaults: 8 sessions, 10 min, no rate limit, 1 MiB, 128 streams a session */
    public static AgentLimits defaults() {
        return new AgentLimits(DEFAULT_MAX_SESSIONS, DEFAULT_MAX_DURATION, 0, DEFAULT_MAX_PAYLOAD_BYTES);
    }

    /** @return why the agent refuses {@code spec}, naming the limit; empty when it is within them */
    public Optional<String> refusal(TransferSpec spec) {
        if (spec.bound().kind() != Bound.Kind.DURATION) {
            return Optional.of("a remote stream is bounded by a duration, not " + spec.bound()
                    + ": the two ends agree on when to stop by time");
        }
        Duration total = spec.warmup().plusNanos(spec.bound().amount());
        if (total.compareTo(maxDuration) > 0) {
            return Optional.of(String.format(Locale.ROOT,
                    "warm-up + duration %d ms exceeds the agent's duration limit of %d ms (--max-duration)",
                    total.toMillis(), maxDuration.toMillis()));
        }
        if (maxRateBitsPerSecond > 0 && (spec.rateBitsPerSecond() == 0 || spec.rateBitsPerSecond() > maxRateBitsPerSecond)) {
            return Optional.of(String.format(Locale.ROOT,
                    "rate %s exceeds the agent's rate limit of %d bit/s (--max-rate)",
                    spec.rateBitsPerSecond() == 0 ? "unlimited" : spec.rateBitsPerSecond() + " bit/s",
                    maxRateBitsPerSecond));
        }
        if (spec.payloadBytes() > maxPayloadBytes) {
            return Optional.of(String.format(Locale.ROOT,
                    "payload %d bytes exceeds the agent's payload limit of %d bytes (--max-payload)",
                    spec.payloadBytes(), maxPayloadBytes));
        }
        return Optional.empty();
    }

    /**
     * @param streams the data streams a client asks for in one session
     * @return why the agent refuses that many, naming the limit; empty when it is within it
     */
    public Optional<String> refusal(int streams) {
        if (streams < ParallelEnds.MIN_STREAMS || streams > maxStreams) {
            return Optional.of(String.format(Locale.ROOT, "%d parallel streams are out of range; this agent allows "
                    + "%d..%d (--max-streams)", streams, ParallelEnds.MIN_STREAMS, maxStreams));
        }
        return Optional.empty();
    }

    /**
     * @param pattern names the pattern in the refusal
     * @param total the longest the client's run can last
     * @param payloadBytes the largest message
     * @return why the agent refuses a ping-pong or request/response run, naming the limit; empty
     *     when it is within them (no rate limit applies: these patterns send one message per answer)
     */
    public Optional<String> refusal(String pattern, Duration total, int payloadBytes) {
        if (total.compareTo(maxDuration) > 0) {
            return Optional.of(String.format(Locale.ROOT,
                    "%s run of up to %d ms exceeds the agent's duration limit of %d ms (--max-duration)",
                    pattern, total.toMillis(), maxDuration.toMillis()));
        }
        if (payloadBytes > maxPayloadBytes) {
            return Optional.of(String.format(Locale.ROOT,
                    "message of %d bytes exceeds the agent's payload limit of %d bytes (--max-payload)",
                    payloadBytes, maxPayloadBytes));
        }
        return Optional.empty();
    }
}
