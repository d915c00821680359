package io.linerate.peers.agent.client;

import io.linerate.core.AppliedOptions;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.spi.cost.InstructionCount;
import io.linerate.core.spi.engine.EmptyWindow;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Joins the counts of a stream's two ends, one in this JVM and one run by the agent, into one
 * {@link TransferResult}, as {@link RemoteStreamTransfer} reports it. Each end counts by its own
 * clock, so the window is the sender's; what makes the result invalid (a TCP byte count that
 * differs between the ends, an empty window, foreign datagrams, a traffic class not applied) is
 * named in its reasons.
 */
final class EndsJoin {
    private EndsJoin() {}

    /**
     * @param spec the stream's spec, as this end ran it
     * @param local this end's counts
     * @param lo the socket options as this end applied them
     * @param far the agent's end's counts
     * @param fo the agent's applied options as {@link EndJson#options} reads them: traffic class,
     *     SO_SNDBUF, SO_RCVBUF, TCP_NODELAY (1 on), the MSS it read (0 for none)
     * @return the transfer's result: the sender's totals and window, the receiver's counts, each
     *     option as the end that uses it applied it, and why the result is invalid, if it is
     */
    static TransferResult join(TransferSpec spec, EndCounters local, AppliedOptions lo, EndCounters far, int[] fo) {
        return join(spec, local, lo, far, fo, local.intervals());
    }

    /**
     * As {@link #join(TransferSpec, EndCounters, AppliedOptions, EndCounters, int[])}, with this
     * end's intervals as given: its own, with the far sender's {@code TCP_INFO} joined onto them
     * ({@link FarIntervalsJoin}).
     *
     * @param intervals this end's interval samples, in its order
     */
    static TransferResult join(TransferSpec spec, EndCounters local, AppliedOptions lo, EndCounters far, int[] fo,
                               List<IntervalSample> intervals) {
        boolean localSends = local.sender();
        EndCounters tx = localSends ? local : far;
        EndCounters rx = localSends ? far : local;
        int tclass = localSends ? lo.trafficClassApplied() : fo[0];
        int sndbuf = localSends ? lo.sendBufferApplied() : fo[1];
        int rcvbuf = localSends ? fo[2] : lo.receiveBufferApplied();
        boolean nodelay = localSends ? lo.noDelayApplied() : fo[3] == 1;
        AppliedOptions options = new AppliedOptions(spec.trafficClass(), tclass, spec.sendBufferBytes(), sndbuf,
                spec.receiveBufferBytes(), rcvbuf, spec.noDelay(), nodelay, mss(spec, lo, localSends, fo));
        List<String> reasons = new ArrayList<>();
        Optional<UdpStats> udp = Optional.empty();
        if (spec.protocol() == Protocol.TCP) {
            if (rx.bytes() != tx.bytes()) {
                reasons.add("receiver counted " + rx.bytes() + " bytes but the sender sent " + tx.bytes());
            }
            if (tx.windowBytes() == 0 && tx.bytes() > 0) {
                // it sent before the window and not in it: its writes blocked, the receiver reading too little
                reasons.add("no payload byte was sent in the sender's window of " + tx.windowNanos() + " ns, after "
                        + tx.bytes() + " bytes before it: the sender's socket stayed full (TCP flow control), as its "
                        + "receiver read " + rx.windowBytes() + " bytes in its own window; with more streams than CPUs, "
                        + "give fewer --parallel streams");
            } else if (tx.windowBytes() == 0) {
                reasons.add("no payload byte was sent in the sender's window of " + tx.windowNanos() + " ns; "
                        + "lengthen the duration");
            } else if (rx.windowBytes() == 0) {
                reasons.add("no byte arrived in the receiver's window");
            }
        } else {
            long sent = tx.windowMessages();
            long got = rx.windowMessages();
            udp = Optional.of(new UdpStats(sent, got, Math.max(0, sent - got), rx.reordered(), rx.duplicates(),
                    got > 0 ? rx.jitterNanos() : OptionalDouble.empty(),
                    // one-way delay needs the two clocks compared, which they are not
                    new ExactRangeHistogram(1, 60_000_000_000L, 3)));
            if (got == 0) {
                // as an in-process run says it: for a paced sender, how long one message takes at its rate
                reasons.add(EmptyWindow.udp(tx.windowNanos(), sent, spec.payloadBytes(), spec.rateBitsPerSecond()));
            }
            if (rx.foreign() > 0) {
                reasons.add(rx.foreign() + " datagrams of another stream or without a linerate header arrived");
            }
        }
        if (options.trafficClassApplied() != options.trafficClassRequested()) {
            reasons.add(String.format(Locale.ROOT, "traffic class 0x%02x requested but 0x%02x applied",
                    options.trafficClassRequested(), options.trafficClassApplied()));
        }
        // The window is the sender's, as each end's clock is its own. A UDP receiver counts the datagrams
        // the sender sent inside it (the header's phase), wherever they arrived. A TCP receiver's own window
        // also holds bytes the sender wrote in its warm-up; the stream is in order and the receiver counted
        // every byte sent (else the result is invalid above), so the sender's window bytes all arrived and
        // are the window's traffic. Either way goodput is over the sender's window length.
        long windowEnd = rx.windowStartNanos() + tx.windowNanos();
        long windowReceived = spec.protocol() == Protocol.UDP ? rx.windowBytes()
                : rx.bytes() == tx.bytes() ? tx.windowBytes() : Math.min(rx.windowBytes(), tx.windowBytes());
        return TransferResult.builder(spec).bytesSent(tx.bytes()).messagesSent(tx.messages()).bytesReceived(rx.bytes())
                .window(rx.windowStartNanos(), windowEnd).windowBytesSent(tx.windowBytes())
                .windowBytesReceived(windowReceived).udp(udp).intervals(intervals).options(options)
                .senderCpuNanos(tx.cpuNanos()).receiverCpuNanos(rx.cpuNanos()).invalidReasons(reasons)
                .instructions(twoProcesses()).interrupted(local.interrupted() || far.interrupted())
                .build();
    }

    /**
     * @return the MSS as read at both ends where each read its socket's (TCP_MAXSEG, or tcpi_snd_mss
     *     through sock_diag); else this end's:
     *     where the agent sends, one derived on this host's side of the path (the sender's is at most
     *     the one this end advertised from the same MTU), or the one read at this end alone
     */
    private static Optional<TcpMss> mss(TransferSpec spec, AppliedOptions lo, boolean localSends, int[] fo) {
        Optional<TcpMss.Read> here = lo.tcpMss().flatMap(TcpMss::read);
        int far = fo.length > 4 ? fo[4] : 0;
        if (here.isEmpty() || far < 1) {
            return lo.tcpMss();
        }
        int mine = localSends ? here.get().senderBytes() : here.get().receiverBytes();
        // named as this end read its own (TCP_MAXSEG on native sockets, tcpi_snd_mss through sock_diag on nio's)
        String how = here.get().how().replace(" of this host's end", "");
        return Optional.of(TcpMss.read(spec.family(), localSends ? mine : far, localSends ? far : mine, how));
    }

    private static InstructionCount twoProcesses() {
        return InstructionCount.unavailable("the two ends run in two processes; instructions are counted only where "
                + "both ends run in this one");
    }

    /**
     * This end's counts alone, after an interrupt the agent did not answer in time.
     *
     * @param spec the stream's spec, as this end ran it
     * @param local this end's counts, interrupted
     * @param lo the socket options as this end applied them
     * @param missing why the agent's counts are missing
     * @return an interrupted result whose far-end counts are 0 (not measured), invalid for {@code missing}
     */
    static TransferResult alone(TransferSpec spec, EndCounters local, AppliedOptions lo, String missing) {
        boolean sends = local.sender();
        TransferResult.Builder b = TransferResult.builder(spec).intervals(local.intervals()).options(lo)
                .window(local.windowStartNanos(), local.windowEndNanos()).invalidReasons(List.of(missing))
                .instructions(twoProcesses()).interrupted(true);
        if (sends) {
            b.bytesSent(local.bytes()).messagesSent(local.messages()).windowBytesSent(local.windowBytes())
                    .senderCpuNanos(local.cpuNanos());
        } else {
            b.bytesReceived(local.bytes()).windowBytesReceived(local.windowBytes()).receiverCpuNanos(local.cpuNanos());
        }
        return b.build();
    }

    /** @return counts of the end opposite {@code local}, all 0: the agent's, when they are missing */
    static EndCounters missingFarEnd(EndCounters local) {
        return new EndCounters(!local.sender(), 0, 0, 0, 0, 0, 0, 0, 0, 0, OptionalDouble.empty(), 0, List.of(), true);
    }
}
