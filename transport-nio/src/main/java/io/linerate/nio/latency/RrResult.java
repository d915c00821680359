package io.linerate.nio.latency;

import io.linerate.core.latency.RrReport;
import java.util.List;

/**
 * What a request/response run measured.
 *
 * @param report rates and latency over the measured window, with their output formats
 * @param completed transactions completed over the whole run (warm-up and the tail after the
 *     window included), counted by the flows
 * @param accepts connections the server accepted over the whole run
 * @param served responses the server sent over the whole run
 * @param flowAllocatedBytes per flow, heap bytes its thread allocated over its transactions in
 *     the measured window (from the end of its first to the end of its first after it), -1 when
 *     the JVM does not count them; 0 in steady state for rr (crr opens a socket per transaction)
 */
public record RrResult(RrReport report, long completed, long accepts, long served, List<Long> flowAllocatedBytes) {
    /** Copies the list. */
    public RrResult {
        flowAllocatedBytes = List.copyOf(flowAllocatedBytes);
    }

    /** A result without allocation counts. */
    public RrResult(RrReport report, long completed, long accepts, long served) {
        this(report, completed, accepts, served, List.of());
    }
}
