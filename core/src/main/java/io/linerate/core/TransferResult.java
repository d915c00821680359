package io.linerate.core;

import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.TransferFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What both ends of one transfer counted.
 *
 * <p>Totals cover the whole transfer, warm-up and tail included; the measured window covers
 * exactly the steady state after the warm-up (DESIGN rule 5), and every rate is computed over it.
 * Window ends are clock readings taken right after the counters were read.
 *
 * @param spec what was asked for
 * @param bytesSent payload bytes the sender handed to the kernel, whole transfer
 * @param messagesSent writes (TCP) or datagrams (UDP), whole transfer
 * @param bytesReceived payload bytes the receiver read, whole transfer (UDP: distinct datagrams only)
 * @param windowStartNanos start of the measured window, ns since the transfer started
 * @param windowEndNanos end of the measured window, ns since the transfer started
 * @param windowBytesSent payload bytes sent inside the window: from the sender's first message
 *     after the window opened to the reading that closed it
 * @param windowBytesReceived of those bytes, the ones received by the reading that closed the
 *     window (bytes sent in the warm-up are not the window's, wherever they arrive)
 * @param udp datagram accounting, present for UDP
 * @param intervals every interval sample, warm-up ones flagged {@code omitted}
 * @param options socket options requested and applied
 * @param senderCpuNanos CPU time of the sending thread, ns
 * @param receiverCpuNanos CPU time of the receiving thread, ns
 * @param senderAllocatedBytes heap bytes the sending thread allocated inside the measured window,
 *     -1 when the JVM cannot tell; 0 in steady state
 * @param receiverAllocatedBytes the same for the receiving thread
 * @param invalidReasons why the result must not be used; empty when it is valid
 * @param fullLog what the full log wrote, when the spec asked for one
 */
public record TransferResult(TransferSpec spec, long bytesSent, long messagesSent, long bytesReceived,
                             long windowStartNanos, long windowEndNanos, long windowBytesSent,
                             long windowBytesReceived, Optional<UdpStats> udp,
                             List<IntervalSample> intervals, AppliedOptions options,
                             long senderCpuNanos, long receiverCpuNanos,
                             long senderAllocatedBytes, long receiverAllocatedBytes,
                             List<String> invalidReasons, Optional<FullLogSummary> fullLog)
        implements MeasurementResult {

    public TransferResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(fullLog, "fullLog");
        Objects.requireNonNull(udp, "udp");
        Objects.requireNonNull(options, "options");
        intervals = List.copyOf(intervals);
        invalidReasons = List.copyOf(invalidReasons);
    }

    /** A result without a full log. */
    public TransferResult(TransferSpec spec, long bytesSent, long messagesSent, long bytesReceived,
                          long windowStartNanos, long windowEndNanos, long windowBytesSent,
                          long windowBytesReceived, Optional<UdpStats> udp,
                          List<IntervalSample> intervals, AppliedOptions options,
                          long senderCpuNanos, long receiverCpuNanos,
                          long senderAllocatedBytes, long receiverAllocatedBytes,
                          List<String> invalidReasons) {
        this(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos, windowBytesSent,
                windowBytesReceived, udp, intervals, options, senderCpuNanos, receiverCpuNanos, senderAllocatedBytes,
                receiverAllocatedBytes, invalidReasons, Optional.empty());
    }

    /** @return length of the measured window in ns */
    public long measuredNanos() {
        return windowEndNanos - windowStartNanos;
    }

    /** @return receiver goodput over the measured window in bit/s; empty for a zero-length window */
    public OptionalDouble bitsPerSecond() {
        return Rates.bitsPerSecond(windowBytesReceived, measuredNanos());
    }

    /** @return sender throughput over the measured window in bit/s; empty for a zero-length window */
    public OptionalDouble senderBitsPerSecond() {
        return Rates.bitsPerSecond(windowBytesSent, measuredNanos());
    }

    /** @return whether the result may be used: no reason against it was found */
    @Override
    public boolean valid() {
        return invalidReasons.isEmpty();
    }

    /**
     * @return {@link TransferFormat#metrics} under this result's {@link #marker()}, stamped with the
     *     measured window's length
     */
    @Override
    public List<Metric> metrics() {
        return TransferFormat.metrics(this, marker(), measuredNanos() / 1e9);
    }

    /** @return {@link ResultJson#transfer} of this result */
    @Override
    public JsonObject detailJson() {
        return ResultJson.transfer(this);
    }

    /** @return the marker zperf uses for this transfer ({@code udp4}, {@code tcp6_nodelay}, ...) */
    public String marker() {
        return spec.protocol().label() + spec.family().label() + (spec.noDelay() ? "_nodelay" : "");
    }
}
