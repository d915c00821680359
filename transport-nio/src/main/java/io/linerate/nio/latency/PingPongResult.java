package io.linerate.nio.latency;

import io.linerate.core.PingPongProtocol;

import io.linerate.core.AppliedOptions;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.latency.LatencyReport;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What a ping-pong sweep measured.
 *
 * @param report the per-size statistics and their output formats
 * @param options socket options as requested and as read back from the client's socket (all 0
 *     for pipes; no traffic class or TCP_NODELAY for Unix sockets)
 * @param sizes per-size counts, in the order run
 * @param startEpochMillis when the run started, ms since the epoch, for raw logs
 * @param fullLog what the full log wrote, when the spec asked for one
 */
public record PingPongResult(LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                             long startEpochMillis, Optional<FullLogSummary> fullLog) {
    /** Copies the list. */
    public PingPongResult {
        sizes = List.copyOf(sizes);
        Objects.requireNonNull(fullLog, "fullLog");
    }

    /** A result without a full log. */
    public PingPongResult(LatencyReport report, AppliedOptions options, List<SizeCounts> sizes, long startEpochMillis) {
        this(report, options, sizes, startEpochMillis, Optional.empty());
    }

    /**
     * Counts of one size.
     *
     * @param sizeBytes message size, bytes
     * @param roundTrips round trips completed, warm-up included
     * @param measured round trips in the measured part (the samples of the statistics)
     * @param clientAllocatedBytes heap bytes the client thread allocated in the measured part, -1
     *     when the JVM does not count them
     * @param serverAllocatedBytes heap bytes the echo server's thread allocated in the measured part, -1
     *     when unknown
     */
    public record SizeCounts(int sizeBytes, long roundTrips, long measured, long clientAllocatedBytes,
                             long serverAllocatedBytes) {}

    /** @return round trips completed over all sizes, warm-up included */
    public long roundTrips() {
        return sizes.stream().mapToLong(SizeCounts::roundTrips).sum();
    }

    /** @return one line saying which options were applied, for a {@code #} header line */
    public String appliedDescription(PingPongProtocol protocol) {
        AppliedOptions o = options;
        if (protocol == PingPongProtocol.PIPE) {
            return "pipe: no socket options";
        }
        String buffers = String.format(Locale.ROOT, "sndbuf %d B (requested %d), rcvbuf %d B (requested %d)",
                o.sendBufferApplied(), o.sendBufferRequested(), o.receiveBufferApplied(), o.receiveBufferRequested());
        if (!protocol.ip()) {
            return buffers + ", no traffic class or TCP_NODELAY on Unix sockets";
        }
        String tc = String.format(Locale.ROOT, "tclass 0x%02x (requested 0x%02x)", o.trafficClassApplied(),
                o.trafficClassRequested());
        return protocol == PingPongProtocol.TCP
                ? tc + ", " + buffers + ", nodelay " + o.noDelayApplied() + " (requested " + o.noDelayRequested() + "), "
                        + o.tcpMss().map(m -> "mss " + m.bytes() + " B (" + m.derivation() + ")").orElse("mss unknown")
                : tc + ", " + buffers;
    }
}
