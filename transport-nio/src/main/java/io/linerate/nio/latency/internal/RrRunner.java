package io.linerate.nio.latency.internal;

import io.linerate.core.RrSpec;

import io.linerate.core.Clock;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.RrReport;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.PathFacts;
import io.linerate.nio.latency.RrResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs request/response over TCP on loopback as netperf TCP_RR / TCP_CRR and neper tcp_rr / tcp_crr
 * measure it, with the server and every flow in this JVM (one thread each).
 *
 * <p>Measurement: after the warm-up, the window opens with a reading of every flow's transaction
 * counter followed by a clock reading, and closes the same way after the duration; the rates are
 * the counter differences over the clock difference (DESIGN rule 1). The latency histogram holds
 * exactly the transactions counted in the window: a flow records a transaction, with the exact min
 * and max beside its histogram, when it completes while the window is open, and the histograms
 * are read after every flow thread has ended.
 */
public final class RrRunner {
    private RrRunner() {}

    /**
     * Runs the test on the calling thread (the coordinator), a server thread and one thread per flow.
     *
     * @param spec what to measure
     * @param clock times the window and every transaction
     * @param facts run facts for the report
     * @return the report and the server's own counts
     * @throws TransferException when set-up fails, a flow or the server fails, or a wait overruns
     *     the timeout (the message names the flow and its completed transactions); every thread
     *     and socket is released first
     */
    public static RrResult run(RrSpec spec, Clock clock, RunFacts facts) throws TransferException {
        RrServer server;
        try {
            server = RrServer.open(spec.family(), spec.requestBytes(), spec.responseBytes(), spec.noDelay(),
                    spec.pollingIdle().map(io.linerate.core.Idle::newStrategy).orElse(null));
        } catch (IOException e) {
            throw new TransferException("cannot set up the " + spec.testName() + " server on "
                    + spec.family().loopbackAddress().getHostAddress() + ": " + e.getMessage(), e);
        }
        try (RrServer s = server) {
            s.start();
            return run(spec, clock, facts, new ServerSide() {
                @Override
                public SocketAddress address() throws IOException {
                    return s.address();
                }

                @Override
                public Throwable failure() {
                    return s.failure();
                }

                @Override
                public long served() {
                    return s.served();
                }

                @Override
                public long[] finish() {
                    // the server counts a response after writing it, so a flow can finish reading one before it
                    // is counted: stop the server's thread first, then every completed response is counted
                    s.stop();
                    return new long[] {s.accepts(), s.served()};
                }
            });
        }
    }

    /**
     * The server end as the coordinator sees it: in this JVM ({@link RrServer}) or a peer agent's.
     */
    public interface ServerSide {
        /** @return where the flows connect */
        SocketAddress address() throws IOException;

        /** @return why the server ended early, or null (also when it cannot be known during the run) */
        Throwable failure();

        /** @return responses sent so far, as far as known here (for failure messages) */
        long served();

        /**
         * Called once every flow has ended: stops the server's counting.
         *
         * @return {accepted connections, responses written in full} over the whole run
         */
        long[] finish() throws IOException, TransferException;
    }

    /**
     * Runs the flows against a server that is already serving; see {@link #run(RrSpec, Clock, RunFacts)}.
     */
    public static RrResult run(RrSpec spec, Clock clock, RunFacts facts, ServerSide server) throws TransferException {
        List<RrFlow> flows = new ArrayList<>();
        try {
            try {
                return measure(spec, clock, facts, server, flows);
            } finally {
                // flows end before the server closes, so none is left waiting on a closed peer
                stopAll(flows);
            }
        } catch (IOException e) {
            throw new TransferException(spec.testName() + " failed: " + e.getMessage(), e);
        }
    }

    private static RrResult measure(RrSpec spec, Clock clock, RunFacts facts, ServerSide s, List<RrFlow> flows)
            throws IOException, TransferException {
        SocketAddress address = s.address();
        long t0 = clock.nanoTime();
        long interval = spec.flowIntervalNanos();
        for (int i = 0; i < spec.flows(); i++) {
            RrFlow f = new RrFlow(i, spec, address, clock, t0 + interval * i / spec.flows());
            flows.add(f);
            f.start();
        }
        waitUntil(clock, t0 + spec.warmup().toNanos(), flows, s, spec);
        // the window opens and closes in every flow, each flow then counts and records exactly the
        // transactions it completes inside it; each end is a clock reading right after the switch
        for (RrFlow f : flows) {
            f.measuring(true);
        }
        long w0 = clock.nanoTime();
        waitUntil(clock, w0 + spec.duration().toNanos(), flows, s, spec);
        for (RrFlow f : flows) {
            f.measuring(false);
        }
        long w1 = clock.nanoTime();
        stopAll(flows);
        checkFailures(flows, s, spec);
        List<Long> perFlow = new ArrayList<>();
        List<ExactRangeHistogram> parts = new ArrayList<>();
        long completed = 0;
        long inWindow = 0;
        for (int i = 0; i < flows.size(); i++) {
            if (!flows.get(i).ended()) {
                throw new TransferException(String.format(Locale.ROOT, "%s: flow %d did not stop within %d ms of being "
                        + "asked to", spec.testName(), i, 2 * spec.timeout().toMillis() + 1000), null);
            }
        }
        for (RrFlow f : flows) {
            perFlow.add(f.windowCompleted());
            inWindow += f.windowCompleted();
            parts.add(f.windowLatency());
            completed += f.completed();
        }
        if (inWindow == 0) {
            throw new TransferException(String.format(Locale.ROOT,
                    "%s: no transaction completed in the measured window of %d ms%s", spec.testName(),
                    spec.duration().toMillis(), spec.rate() > 0 && interval > spec.duration().toNanos()
                            ? String.format(Locale.ROOT, "; at %d transactions/s over %d flows each flow sends "
                                    + "one request every %d ms: raise --rate or --duration", spec.rate(), spec.flows(),
                                    interval / 1_000_000L)
                            : ""), null);
        }
        ExactRangeHistogram latency = LatencyHistograms.merge(parts);
        List<String> notes = new ArrayList<>();
        if (spec.rate() == 0) {
            notes.add(RrReport.CLOSED_LOOP_NOTE);
        } else {
            notes.add(String.format(Locale.ROOT, "open loop at %d transactions/s (one request every %d ns per flow): "
                    + "latency measured from each request's scheduled send time", spec.rate(), interval));
        }
        notes.add(mssNote(spec, flows));
        spec.pollingIdle().ifPresent(i -> notes.add(String.format(Locale.ROOT, "the flows and the server poll their "
                + "sockets (muxer %s, idle %s): %s", spec.muxer().label(), i.label(),
                i.longestStepNanos() == 0 ? "each waiting thread keeps a core busy"
                        : "a thread that waits long parks between polls, and its wake-up delay adds to latency")));
        RrReport report = new RrReport(facts, spec.testName(), perFlow, w1 - w0, latency, spec.percentile(), notes);
        if (spec.rate() > 0 && report.transactionsPerSecond().orElse(0) < 0.9 * spec.rate()) {
            notes.add(String.format(Locale.ROOT, "achieved %.1f transactions/s, below the target of %d: "
                    + "requests queued behind slow responses and their latency includes the wait",
                    report.transactionsPerSecond().orElse(0), spec.rate()));
            report = new RrReport(facts, spec.testName(), perFlow, w1 - w0, latency, spec.percentile(), notes);
        }
        long[] serverCounts = s.finish();
        List<Long> allocated = new ArrayList<>();
        for (RrFlow f : flows) {
            allocated.add(f.windowAllocatedBytes());
        }
        return new RrResult(spec, report, completed, serverCounts[0], serverCounts[1], allocated);
    }

    /**
     * The JDK has no TCP_MAXSEG: the MSS is derived from the MTU of the interface the flows' connections
     * leave through (their local address's: the loopback's on this host, the link's towards a peer) and
     * the TCP options in use.
     */
    private static String mssNote(RrSpec spec, List<RrFlow> flows) {
        InetAddress local = flows.stream().map(RrFlow::localAddress).filter(Objects::nonNull).findFirst().orElse(null);
        Optional<TcpMss> mss = local == null ? Optional.empty() : PathFacts.tcpMss(spec.family(), local);
        return mss.map(m -> "tcp mss " + m.bytes() + " B (" + m.derivation() + ")")
                .orElse("tcp mss unknown: the MTU of the connections' interface or net.ipv4.tcp_timestamps could not be read");
    }

    private static void waitUntil(Clock clock, long when, List<RrFlow> flows, ServerSide server, RrSpec spec)
            throws TransferException {
        while (true) {
            checkFailures(flows, server, spec);
            long left = when - clock.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(left, 10_000_000L));
        }
    }

    private static void checkFailures(List<RrFlow> flows, ServerSide server, RrSpec spec) throws TransferException {
        for (int i = 0; i < flows.size(); i++) {
            RrFlow f = flows.get(i);
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

    private static void stopAll(List<RrFlow> flows) {
        for (RrFlow f : flows) {
            f.requestStop();
        }
        for (RrFlow f : flows) {
            f.close();
        }
    }
}
