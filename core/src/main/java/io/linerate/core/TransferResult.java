package io.linerate.core;

import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.TransferFormat;
import io.linerate.core.spi.cost.CpuCounters;
import io.linerate.core.spi.cost.InstructionCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What both ends of one transfer counted.
 *
 * <p>Totals cover the whole transfer, warm-up and tail included; the measured window covers
 * exactly the steady state after the warm-up (DESIGN rule 5), and every rate is computed over it.
 * Window ends are clock readings taken right after the counters were read. Build one with
 * {@link #builder}.
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
 * @param processCpuNanos CPU time of the whole process over the transfer ({@link ProcessCpu}), ns;
 *     -1 when unknown
 * @param instructions instructions the two measuring threads retired, or why they were not counted
 * @param interrupted whether the run was stopped before its bound by an interrupt of its thread
 *     ({@link Transfer#run(IntervalListener)}): the window ends at the reading after the interrupt
 * @param tcp what the kernel's {@code TCP_INFO} said of the sending socket, where the transport
 *     reads it (the native transport; NIO through a TCP_INFO source); empty otherwise
 * @param tcpUnavailable why a TCP stream has no {@code tcp}, such as no TCP_INFO source on the class
 *     path; empty when it has them, or the reason is not known
 * @param dataPath the system calls each end made and the datagrams or writes each carried, where
 *     the transport reports them (the native transport); empty otherwise
 */
public record TransferResult(TransferSpec spec, long bytesSent, long messagesSent, long bytesReceived,
                             long windowStartNanos, long windowEndNanos, long windowBytesSent,
                             long windowBytesReceived, Optional<UdpStats> udp,
                             List<IntervalSample> intervals, AppliedOptions options,
                             long senderCpuNanos, long receiverCpuNanos,
                             long senderAllocatedBytes, long receiverAllocatedBytes,
                             List<String> invalidReasons, Optional<FullLogSummary> fullLog,
                             long processCpuNanos, InstructionCount instructions, boolean interrupted,
                             Optional<TcpStats> tcp, String tcpUnavailable, Optional<DataPath> dataPath)
        implements MeasurementResult {

    public TransferResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(fullLog, "fullLog");
        Objects.requireNonNull(instructions, "instructions");
        Objects.requireNonNull(udp, "udp");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(tcp, "tcp");
        Objects.requireNonNull(tcpUnavailable, "tcpUnavailable");
        Objects.requireNonNull(dataPath, "dataPath");
        if (tcp.isPresent() && !tcpUnavailable.isEmpty()) {
            throw new IllegalArgumentException("a result with TCP_INFO figures has no reason they are unavailable, not '"
                    + tcpUnavailable + "'; allowed: empty");
        }
        intervals = List.copyOf(intervals);
        invalidReasons = List.copyOf(invalidReasons);
    }

    /**
     * @param spec what was asked for
     * @return a builder of a result for {@code spec}: every count 0, allocations -1 (unknown), no
     *     UDP accounting, intervals, reasons or full log; {@link Builder#options} must be set
     */
    public static Builder builder(TransferSpec spec) {
        return new Builder(spec);
    }

    /**
     * Builds a {@link TransferResult} field by named field, so that no two of its many {@code long}
     * counts can be swapped silently. Each setter's unit is that of the component it sets.
     */
    public static final class Builder {
        private final TransferSpec spec;
        private long bytesSent;
        private long messagesSent;
        private long bytesReceived;
        private long windowStartNanos;
        private long windowEndNanos;
        private long windowBytesSent;
        private long windowBytesReceived;
        private Optional<UdpStats> udp = Optional.empty();
        private List<IntervalSample> intervals = List.of();
        private AppliedOptions options;
        private long senderCpuNanos;
        private long receiverCpuNanos;
        private long senderAllocatedBytes = -1;
        private long receiverAllocatedBytes = -1;
        private List<String> invalidReasons = List.of();
        private Optional<FullLogSummary> fullLog = Optional.empty();
        private long processCpuNanos = -1;
        private InstructionCount instructions = InstructionCount.unavailable(CpuCounters.NO_PROVIDER);
        private boolean interrupted;
        private Optional<TcpStats> tcp = Optional.empty();
        private Optional<DataPath> dataPath = Optional.empty();

        private Builder(TransferSpec spec) {
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        /** @param v payload bytes sent, whole transfer @return this */
        public Builder bytesSent(long v) {
            bytesSent = v;
            return this;
        }

        /** @param v writes or datagrams sent, whole transfer @return this */
        public Builder messagesSent(long v) {
            messagesSent = v;
            return this;
        }

        /** @param v payload bytes received, whole transfer @return this */
        public Builder bytesReceived(long v) {
            bytesReceived = v;
            return this;
        }

        /**
         * @param startNanos start of the measured window, ns since the transfer started
         * @param endNanos its end, ns since the transfer started
         * @return this
         */
        public Builder window(long startNanos, long endNanos) {
            windowStartNanos = startNanos;
            windowEndNanos = endNanos;
            return this;
        }

        /** @param v payload bytes sent inside the window @return this */
        public Builder windowBytesSent(long v) {
            windowBytesSent = v;
            return this;
        }

        /** @param v of the window's bytes, those received by the reading that closed it @return this */
        public Builder windowBytesReceived(long v) {
            windowBytesReceived = v;
            return this;
        }

        /** @param v datagram accounting (UDP) @return this */
        public Builder udp(UdpStats v) {
            udp = Optional.of(v);
            return this;
        }

        /** @param v datagram accounting, empty for TCP @return this */
        public Builder udp(Optional<UdpStats> v) {
            udp = Objects.requireNonNull(v, "udp");
            return this;
        }

        /** @param v every interval sample, warm-up ones flagged omitted @return this */
        public Builder intervals(List<IntervalSample> v) {
            intervals = v;
            return this;
        }

        /** @param v socket options requested and applied @return this */
        public Builder options(AppliedOptions v) {
            options = v;
            return this;
        }

        /** @param v CPU time of the sending thread, ns @return this */
        public Builder senderCpuNanos(long v) {
            senderCpuNanos = v;
            return this;
        }

        /** @param v CPU time of the receiving thread, ns @return this */
        public Builder receiverCpuNanos(long v) {
            receiverCpuNanos = v;
            return this;
        }

        /** @param v heap bytes the sending thread allocated in the window, -1 when unknown @return this */
        public Builder senderAllocatedBytes(long v) {
            senderAllocatedBytes = v;
            return this;
        }

        /** @param v heap bytes the receiving thread allocated in the window, -1 when unknown @return this */
        public Builder receiverAllocatedBytes(long v) {
            receiverAllocatedBytes = v;
            return this;
        }

        /** @param v why the result must not be used; empty when valid @return this */
        public Builder invalidReasons(List<String> v) {
            invalidReasons = v;
            return this;
        }

        /** @param v what the full log wrote, if the spec asked for one @return this */
        public Builder fullLog(Optional<FullLogSummary> v) {
            fullLog = Objects.requireNonNull(v, "fullLog");
            return this;
        }

        /** @param v CPU time of the whole process over the transfer, ns; -1 when unknown @return this */
        public Builder processCpuNanos(long v) {
            processCpuNanos = v;
            return this;
        }

        /** @param v the measuring threads' instructions, or why they were not counted @return this */
        public Builder instructions(InstructionCount v) {
            instructions = Objects.requireNonNull(v, "instructions");
            return this;
        }

        /** @param v whether the run was stopped early by an interrupt of its thread @return this */
        public Builder interrupted(boolean v) {
            interrupted = v;
            return this;
        }

        /**
         * @return the result
         * @throws NullPointerException when the options were not set
         */
        /** @param v the sending socket's {@code TCP_INFO} figures @return this */
        public Builder tcp(TcpStats v) {
            tcp = Optional.of(v);
            return this;
        }

        /** @param v the system calls each end made and what each carried @return this */
        public Builder dataPath(DataPath v) {
            dataPath = Optional.of(v);
            return this;
        }

        public TransferResult build() {
            return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                    windowBytesSent, windowBytesReceived, udp, intervals, options, senderCpuNanos, receiverCpuNanos,
                    senderAllocatedBytes, receiverAllocatedBytes, invalidReasons, fullLog, processCpuNanos,
                    instructions, interrupted, tcp, "", dataPath);
        }
    }

    /**
     * @param stats the sending socket's {@code TCP_INFO} figures
     * @param readOptions the options as read from the sockets at the end of the run, such as an MSS
     *     read once the connection settled (the kernel bounds the MSS by half the peer's largest
     *     window until that has grown)
     * @return this result with both
     */
    public TransferResult withTcp(TcpStats stats, AppliedOptions readOptions) {
        return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                windowBytesSent, windowBytesReceived, udp, intervals, readOptions, senderCpuNanos, receiverCpuNanos,
                senderAllocatedBytes, receiverAllocatedBytes, invalidReasons, fullLog, processCpuNanos, instructions,
                interrupted, Optional.of(stats), "", dataPath);
    }

    /**
     * @param reason why the sending socket's {@code TCP_INFO} could not be read, such as no TCP_INFO
     *     source on the class path; not blank
     * @return this result without {@code TCP_INFO} figures, saying why; this result itself when it has them
     * @throws IllegalArgumentException for a blank reason
     */
    public TransferResult withTcpUnavailable(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("the reason TCP_INFO is unavailable is blank; allowed: a reason");
        }
        if (tcp.isPresent()) {
            return this;
        }
        return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                windowBytesSent, windowBytesReceived, udp, intervals, options, senderCpuNanos, receiverCpuNanos,
                senderAllocatedBytes, receiverAllocatedBytes, invalidReasons, fullLog, processCpuNanos, instructions,
                interrupted, tcp, reason, dataPath);
    }

    /**
     * @param reason why the result must not be used, found after it was built; not blank
     * @return this result with {@code reason} after its others
     * @throws IllegalArgumentException for a blank reason
     */
    public TransferResult withInvalidReason(String reason) {
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("an invalid reason is blank; allowed: a reason");
        }
        List<String> reasons = new ArrayList<>(invalidReasons);
        reasons.add(reason);
        return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                windowBytesSent, windowBytesReceived, udp, intervals, options, senderCpuNanos, receiverCpuNanos,
                senderAllocatedBytes, receiverAllocatedBytes, reasons, fullLog, processCpuNanos, instructions,
                interrupted, tcp, tcpUnavailable, dataPath);
    }

    /**
     * @param path the system calls each end made and what each carried
     * @return this result with {@code path}
     */
    public TransferResult withDataPath(DataPath path) {
        return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                windowBytesSent, windowBytesReceived, udp, intervals, options, senderCpuNanos, receiverCpuNanos,
                senderAllocatedBytes, receiverAllocatedBytes, invalidReasons, fullLog, processCpuNanos, instructions,
                interrupted, tcp, tcpUnavailable, Optional.of(path));
    }

    /**
     * @param drops the receiving socket's drops over the whole transfer ({@link
     *     UdpStats#receiverSocketDrops()}), -1 when unknown
     * @return this result with {@code drops} in its UDP stats; this result itself without UDP stats
     * @throws IllegalArgumentException for drops below -1
     */
    public TransferResult withReceiverSocketDrops(long drops) {
        if (udp.isEmpty()) {
            return this;
        }
        return new TransferResult(spec, bytesSent, messagesSent, bytesReceived, windowStartNanos, windowEndNanos,
                windowBytesSent, windowBytesReceived, udp.map(u -> u.withReceiverSocketDrops(drops)), intervals,
                options, senderCpuNanos, receiverCpuNanos, senderAllocatedBytes, receiverAllocatedBytes, invalidReasons, fullLog,
                processCpuNanos, instructions, interrupted, tcp, tcpUnavailable, dataPath);
    }

    /** @return the CPU cost per KiB of payload: {@link ServiceDemand#of} this result */
    public ServiceDemand serviceDemand() {
        return ServiceDemand.of(this);
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
        return metrics(marker());
    }

    /**
     * @param marker the series name prefix in place of {@link #marker()}, such as the loopback
     *     suite's {@code udp4_frag}
     * @return {@link TransferFormat#metrics} under {@code marker}, stamped with the measured window's length
     */
    public List<Metric> metrics(String marker) {
        return TransferFormat.metrics(this, marker, measuredNanos() / 1e9);
    }

    /** @return {@link ResultJson#transfer} of this result */
    @Override
    public JsonObject detailJson() {
        return ResultJson.transfer(this);
    }

    /** @return the marker zperf uses for this transfer ({@code udp4}, {@code tcp6_nodelay}, ...): {@link TransferSpec#testName()} */
    public String marker() {
        return spec.testName();
    }
}
