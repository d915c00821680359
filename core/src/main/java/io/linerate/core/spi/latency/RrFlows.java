package io.linerate.core.spi.latency;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.RrReport;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.RrServerSide;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Runs request/response flows ({@link RrFlowLoop}, one thread each, on a transport's sockets) against a
 * server that is already serving, in this JVM or on a peer ({@link RrServerSide}), as netperf TCP_RR /
 * TCP_CRR and neper tcp_rr / tcp_crr measure it; every transport's request/response runs on it.
 *
 * <p>Measurement: after the warm-up, the window opens with a reading of every flow's transaction
 * counter followed by a clock reading, and closes the same way after the duration; the rates are
 * the counter differences over the clock difference (DESIGN rule 1). The latency histogram holds
 * exactly the transactions counted in the window: a flow records a transaction, with the exact min
 * and max beside its histogram, when it completes while the window is open, and the histograms
 * are read after every flow thread has ended.
 *
 * <p>Open loop ({@code --rate}): the window is the schedule's own, from the end of the warm-up for
 * the duration, and holds the transactions whose requests were due inside it
 * ({@link OpenLoopSchedule}), so it never runs above the target rate: a backlog of the warm-up
 * caught up inside it is not counted. After it closes the flows finish the transactions due
 * inside it, bounded by the timeout. The report gives the achieved rate beside the target, and the
 * requests that left late with the largest lateness.
 *
 * <p>An interrupt of the calling thread closes the window at once and the result says so
 * ({@link RrResult#interrupted()}); one in the warm-up gives a result with a window of no length,
 * marked interrupted, that says nothing was measured.
 */
public final class RrFlows {
    private RrFlows() {}

    /** Makes the flows of one run, on a transport's sockets. */
    @FunctionalInterface
    public interface Factory {
        /**
         * @param id the flow's number, 0 up
         * @param server where it connects
         * @param firstScheduled clock reading of its first open-loop send, ns; ignored in closed loop
         * @return the flow, not started
         */
        RrFlowLoop create(int id, SocketAddress server, long firstScheduled);
    }

    /**
     * Runs the flows on the calling thread (the coordinator) and one thread per flow.
     *
     * @param spec what to measure
     * @param clock times the window and every transaction
     * @param facts run facts for the report
     * @param server the server, serving
     * @param factory makes each flow on the transport's sockets
     * @param derivedMss where the flows' MSS could not be read: the MSS derived for a connection from
     *     this local address (its interface's MTU), or empty
     * @return the report and the server's own counts
     * @throws TransferException when a flow or the server fails, or a wait overruns the timeout (the
     *     message names the flow and its completed transactions); every flow has ended first
     */
    public static RrResult run(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server, Factory factory,
                               Function<InetAddress, Optional<TcpMss>> derivedMss) throws TransferException {
        List<RrFlowLoop> flows = new ArrayList<>();
        try {
            try {
                return measure(spec, clock, facts, server, flows, factory, derivedMss);
            } finally {
                // flows end before the server closes, so none is left waiting on a closed peer
                stopAll(flows);
            }
        } catch (IOException e) {
            throw new TransferException(spec.testName() + " failed: " + e.getMessage(), e);
        }
    }

    private static RrResult measure(RrSpec spec, Clock clock, RunFacts facts, RrServerSide s, List<RrFlowLoop> flows,
                                    Factory factory, Function<InetAddress, Optional<TcpMss>> derivedMss)
            throws IOException, TransferException {
        SocketAddress address = s.address();
        long t0 = clock.nanoTime();
        long interval = spec.flowIntervalNanos();
        long open = t0 + spec.warmup().toNanos();
        long close = open + spec.duration().toNanos();
        startFlows(spec, factory, address, t0, open, close, flows);
        RrTcpInfo tcp = new RrTcpInfo(spec);
        long[] window = window(spec, clock, flows, s, t0, open, close, tcp);
        long w0 = window[0];
        long w1 = window[1];
        boolean interrupted = window[2] != 0;
        boolean beforeWindow = window[2] == WARMUP_INTERRUPTED;
        stopAll(flows);
        checkFailures(flows, s, spec);
        List<Long> perFlow = new ArrayList<>();
        List<ExactRangeHistogram> parts = new ArrayList<>();
        long completed = 0;
        long inWindow = 0;
        requireEnded(spec, flows);
        for (RrFlowLoop f : flows) {
            perFlow.add(f.windowCompleted());
            inWindow += f.windowCompleted();
            parts.add(f.windowLatency());
            completed += f.completed();
        }
        if (inWindow == 0 && !interrupted) {
            throw new TransferException(String.format(Locale.ROOT,
                    "%s: no transaction completed in the measured window of %d ms%s", spec.testName(),
                    spec.duration().toMillis(), spec.rate() > 0 && interval > spec.duration().toNanos()
                            ? String.format(Locale.ROOT, "; at %d transactions/s over %d flows each flow sends "
                                    + "one request every %d ms: raise --rate or --duration", spec.rate(), spec.flows(),
                                    interval / 1_000_000L)
                            : ""), null);
        }
        ExactRangeHistogram latency = LatencyHistograms.merge(parts);
        List<String> notes = notes(spec, flows, interval, derivedMss);
        if (beforeWindow) {
            notes.add(0, "interrupted in the warm-up: nothing was measured (the measured window had not opened)");
        }
        RrReport report = new RrReport(facts, spec.testName(), perFlow, w1 - w0, latency, spec.percentile(), notes);
        if (spec.rate() > 0) {
            notes.add(openLoopNote(spec, report, flows));
            if (report.transactionsPerSecond().orElse(0) < 0.9 * spec.rate()) {
                notes.add(String.format(Locale.ROOT, "achieved %.1f transactions/s, below the target of %d: "
                        + "requests queued behind slow responses and their latency includes the wait",
                        report.transactionsPerSecond().orElse(0), spec.rate()));
            }
            report = new RrReport(facts, spec.testName(), perFlow, w1 - w0, latency, spec.percentile(), notes);
        }
        long[] serverCounts = s.finish();
        List<Long> allocated = new ArrayList<>();
        for (RrFlowLoop f : flows) {
            allocated.add(f.windowAllocatedBytes());
        }
        return new RrResult(spec, report, completed, serverCounts[0], serverCounts[1], allocated, interrupted,
                Optional.ofNullable(tcp.result()));
    }

    /** {@link #window}'s third element when an interrupt came in the warm-up. */
    private static final long WARMUP_INTERRUPTED = 2;

    /**
     * Waits out the warm-up, then opens and closes the window in every flow, each flow then counting
     * and recording exactly the transactions it completes inside it; each end is a clock reading
     * right after the switch. An interrupt (SIGINT) closes the window early, and what it holds is the
     * result; one in the warm-up leaves the window unopened, of no length. The connections'
     * {@code TCP_INFO} is read at both edges ({@link RrTcpInfo}), after the flows switched.
     *
     * @return {window start, window end (ns, clock readings), 0 / 1 (interrupted in the window) /
     *     {@link #WARMUP_INTERRUPTED}}
     */
    private static long[] window(RrSpec spec, Clock clock, List<RrFlowLoop> flows, RrServerSide s, long t0, long open,
                                 long close, RrTcpInfo tcp) throws TransferException {
        if (waitUntil(clock, t0 + spec.warmup().toNanos(), flows, s, spec)) {
            long now = clock.nanoTime();
            return new long[] {now, now, WARMUP_INTERRUPTED};
        }
        for (RrFlowLoop f : flows) {
            f.measuring(true);
        }
        long w0 = clock.nanoTime();
        tcp.open(flows);
        boolean interrupted = waitUntil(clock, w0 + spec.duration().toNanos(), flows, s, spec);
        for (RrFlowLoop f : flows) {
            f.measuring(false);
        }
        long w1 = clock.nanoTime();
        tcp.close(flows);
        if (spec.flowIntervalNanos() > 0) {
            // open loop: the window is the scheduled one, and the requests due in it are waited for
            if (!interrupted) {
                finishDue(clock, close, flows, s, spec);
                w1 = close;
            }
            w0 = open;
        }
        return new long[] {w0, w1, interrupted ? 1 : 0};
    }

    /** Starts every flow, each open-loop flow's first request spread over one interval, and its window set. */
    private static void startFlows(RrSpec spec, Factory factory, SocketAddress address, long t0, long open, long close,
                                   List<RrFlowLoop> flows) {
        long interval = spec.flowIntervalNanos();
        for (int i = 0; i < spec.flows(); i++) {
            RrFlowLoop f = factory.create(i, address, t0 + interval * i / spec.flows());
            if (interval > 0) {
                f.openLoopWindow(open, close);
            }
            flows.add(f);
            f.start();
        }
    }

    /** @throws TransferException naming the first flow that did not stop when asked to */
    private static void requireEnded(RrSpec spec, List<RrFlowLoop> flows) throws TransferException {
        for (int i = 0; i < flows.size(); i++) {
            if (!flows.get(i).ended()) {
                throw new TransferException(String.format(Locale.ROOT, "%s: flow %d did not stop within %d ms of being "
                        + "asked to", spec.testName(), i, 2 * spec.timeout().toMillis() + 1000), null);
            }
        }
    }

    /** @return the report's notes on how the run was driven: closed or open loop, the MSS, polling */
    private static List<String> notes(RrSpec spec, List<RrFlowLoop> flows, long interval,
                                      Function<InetAddress, Optional<TcpMss>> derivedMss) {
        List<String> notes = new ArrayList<>();
        if (spec.rate() == 0) {
            notes.add(RrReport.CLOSED_LOOP_NOTE);
        } else {
            notes.add(String.format(Locale.ROOT, "open loop at %d transactions/s (one request every %d ns per flow): "
                    + "latency measured from each request's scheduled send time", spec.rate(), interval));
        }
        notes.add(mssNote(flows, derivedMss));
        spec.pollingIdle().ifPresent(i -> notes.add(String.format(Locale.ROOT, "the flows and the server poll their "
                + "sockets (muxer %s, idle %s): %s", spec.muxer().label(), i.label(),
                i.longestStepNanos() == 0 ? "each waiting thread keeps a core busy"
                        : "a thread that waits long parks between polls, and its wake-up delay adds to latency")));
        return notes;
    }

    /**
     * The MSS of the first flow's first connection as the transport read it; where it
     * cannot be read, derived from the MTU of the interface the flows' connections leave through (their
     * local address's: the loopback's on this host, the link's towards a peer) and the TCP options in use.
     */
    private static String mssNote(List<RrFlowLoop> flows, Function<InetAddress, Optional<TcpMss>> derivedMss) {
        Optional<TcpMss> read = flows.stream().map(RrFlowLoop::mss).flatMap(Optional::stream).findFirst();
        InetAddress local = flows.stream().map(RrFlowLoop::localAddress).filter(Objects::nonNull).findFirst().orElse(null);
        Optional<TcpMss> mss = read.isPresent() || local == null ? read : derivedMss.apply(local);
        return mss.map(m -> "tcp mss " + m.bytes() + " B (" + m.derivation() + ")")
                .orElse("tcp mss unknown: the MTU of the connections' interface or net.ipv4.tcp_timestamps could not be read");
    }

    /** @return the achieved rate beside the target, and the late sends with the largest lateness */
    private static String openLoopNote(RrSpec spec, RrReport report, List<RrFlowLoop> flows) {
        long late = 0;
        long maxLate = 0;
        for (RrFlowLoop f : flows) {
            late += f.lateSends();
            maxLate = Math.max(maxLate, f.maxLatenessNanos());
        }
        return String.format(Locale.ROOT, "open loop: achieved %.1f of the target %d transactions/s over the "
                + "scheduled window; %d requests left late (a flow interval or more after they were due), "
                + "the largest lateness %d ns", report.transactionsPerSecond().orElse(0), spec.rate(), late, maxLate);
    }

    /**
     * Open loop: waits until every flow has completed the transactions due before {@code close},
     * at most the spec's timeout after it.
     */
    private static void finishDue(Clock clock, long close, List<RrFlowLoop> flows, RrServerSide server, RrSpec spec)
            throws TransferException {
        long deadline = close + spec.timeout().toNanos();
        for (RrFlowLoop f : flows) {
            while (f.nextOpenDue() - close < 0 && !f.ended() && clock.nanoTime() - deadline < 0) {
                checkFailures(flows, server, spec);
                LockSupport.parkNanos(1_000_000L);
            }
        }
    }

    /** @return whether an interrupt of this thread ended the wait early (its status is cleared) */
    private static boolean waitUntil(Clock clock, long when, List<RrFlowLoop> flows, RrServerSide server, RrSpec spec)
            throws TransferException {
        while (true) {
            checkFailures(flows, server, spec);
            if (Thread.interrupted()) {
                return true;
            }
            long left = when - clock.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, 10_000_000L));
        }
    }

    private static void checkFailures(List<RrFlowLoop> flows, RrServerSide server, RrSpec spec) throws TransferException {
        for (int i = 0; i < flows.size(); i++) {
            RrFlowLoop f = flows.get(i);
            Throwable e = f.failure();
            if (e != null) {
                throw new TransferException(String.format(Locale.ROOT, "%s flow %d failed after %d transactions: %s",
                        spec.testName(), i, f.completed(), e.getMessage()), e);
            }
        }
        Throwable e = server.failure();
        if (e != null) {
            throw new TransferException(spec.testName() + " server failed after " + server.served()
                    + " responses: " + e.getMessage(), e);
        }
    }

    private static void stopAll(List<RrFlowLoop> flows) {
        for (RrFlowLoop f : flows) {
            f.requestStop();
        }
        for (RrFlowLoop f : flows) {
            f.close();
        }
    }
}
