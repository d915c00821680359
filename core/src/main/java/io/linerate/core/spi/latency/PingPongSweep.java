package io.linerate.core.spi.latency;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.DatagramHeader;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.fulllog.FullLog;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.latency.AffinityReadBack;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.RunProgress;
import io.linerate.core.spi.tcp.TcpInfoWindow;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The transport-neutral ping-pong sweep over the spec's sizes, from one client end against an echo
 * end: per size a warm-up, then round trips until the spec's {@link IterationPolicy} is met, each
 * timed with the run's {@link Clock} into an HdrHistogram ({@link LatencyHistograms}, ns), with the
 * full log's entries, live progress ({@link LiveCounters}) opened before the size's first round trip
 * and never touched inside the round-trip loop, and datagram answers checked for their round trip's
 * number ({@link AnswerStamp}). Allocation-free per round trip. For TCP, both ends' {@code TCP_INFO}
 * ({@link MessageEnd#tcpInfo()}) is read by this thread at the edges of each size's measured part
 * and once the sweep has ended ({@link TcpInfoWindow}), into {@link PingPongResult#tcpInfo()}.
 */
public final class PingPongSweep {
    /** The client's {@link LatencyTcpInfo.End#source()}. */
    public static final String CLIENT_SOURCE = "TCP_INFO of the client's socket; window: the sizes' measured parts";
    /** The echo server's {@link LatencyTcpInfo.End#source()}, where it runs in this JVM. */
    public static final String SERVER_SOURCE = "TCP_INFO of the echo server's socket; window: the sizes' measured parts";
    /** Why the echo end's TCP_INFO is not read here when it runs on a peer, until its host's figures replace it. */
    public static final String PEER_ECHO = "the echo end runs on a peer, which reads its own TCP_INFO";
    private static final com.sun.management.ThreadMXBean ALLOCATION =
            ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean m
                    && m.isThreadAllocatedMemorySupported() && m.isThreadAllocatedMemoryEnabled() ? m : null;

    private final PingPongSpec spec;
    private final Clock clock;
    private final MessageEnd end;
    private final EchoServer server;
    private final long timeoutNanos;
    private final FullLog log;
    /**
     * Whether each round trip is timed by the end's own stamps ({@link MessageEnd#stampsCalls()}),
     * which read {@link System#nanoTime()}'s clock, so only when the sweep's clock is that one.
     */
    private final boolean stamped;
    /** The client's and the echo server's TCP_INFO windows; null for an end that is not TCP. */
    private final TcpInfoWindow clientTcp;
    private final TcpInfoWindow serverTcp;
    private long roundTrips;
    /** Answers of the size being measured that carried an earlier round trip's number (skipped). */
    private long staleAnswers;
    /** Per size whose floor a cap cut short, which ({@link IterationPolicy.Progress#shortfall}). */
    private final List<String> capNotes = new ArrayList<>();

    private PingPongSweep(PingPongSpec spec, Clock clock, MessageEnd end, EchoServer server, FullLog log) {
        this.spec = spec;
        this.clock = clock;
        this.end = end;
        this.server = server;
        this.timeoutNanos = spec.timeout().toNanos();
        this.log = log;
        this.stamped = end.stampsCalls() && clock == Clock.system();
        this.clientTcp = end.tcpInfo().map(f -> TcpInfoWindow.of(CLIENT_SOURCE, f)).orElse(null);
        this.serverTcp = server == null ? null
                : server.tcpInfo().map(f -> TcpInfoWindow.of(SERVER_SOURCE, f)).orElse(null);
    }

    /**
     * Runs the sweep on this thread, pinned to the spec's client CPU when it has one; closes
     * {@code client} when the sweep ends (not on failure: the caller closes it on every path).
     *
     * @param server the echo server in this JVM, for its failure and its allocations; null when the
     *     echo end is elsewhere (a peer agent's)
     * @param options the options as requested and as read back from the sockets
     * @param roundTrips receives in its element 0 the round trips completed, also when the sweep fails
     * @param serverCpus the echo thread's CPU set as read back once pinned, empty when not pinned
     * @return the result; an interrupt of this thread ends the sweep early with what was measured
     * @throws TransferException when a round trip times out, the server closes, the answer has the
     *     wrong size, or I/O fails, naming the protocol, the size and the round trips completed
     */
    public static PingPongResult sweep(PingPongSpec spec, Clock clock, RunFacts facts, MessageEnd client,
                                       EchoServer server, AppliedOptions options, long[] roundTrips,
                                       Optional<String> serverCpus) throws TransferException {
        try (Pinning pin = Pinning.of("client", spec.affinity().clientCpu())) {
            Optional<AffinityReadBack> pinned = spec.affinity().pins()
                    ? Optional.of(new AffinityReadBack(pin.readBack(), serverCpus)) : Optional.empty();
            return sweepPinned(spec, clock, facts, client, server, options, roundTrips, pinned);
        }
    }

    private static PingPongResult sweepPinned(PingPongSpec spec, Clock clock, RunFacts facts, MessageEnd client,
                                              EchoServer server, AppliedOptions options, long[] roundTrips,
                                              Optional<AffinityReadBack> pinned) throws TransferException {
        long startMillis = System.currentTimeMillis();
        FullLog log = openFullLog(spec);
        PingPongSweep runner = new PingPongSweep(spec, clock, client, server, log);
        RunProgress shown = null;
        try {
            long t0 = clock.nanoTime();
            List<SizeLatency> results = new ArrayList<>();
            List<PingPongResult.SizeCounts> counts = new ArrayList<>();
            List<Integer> sizes = spec.sizes();
            boolean interrupted = false;
            for (int i = 0; i < sizes.size() && !interrupted; i++) {
                // the next size's report opens before the last one closes, so the counters file stays through the sweep
                RunProgress next = LiveCounters.process().progress(progressLabel(spec, sizes.get(i)), sizes.size());
                next.done(i);
                if (shown != null) {
                    shown.close();
                }
                shown = next;
                interrupted = runner.measure(sizes.get(i), t0, results, counts);
            }
            Optional<LatencyTcpInfo> tcp = runner.tcpInfo();
            client.close();
            Optional<FullLogSummary> logged = Optional.empty();
            if (log != null) {
                log.finish();
                logged = Optional.of(log.closeAndSummarize());
            }
            return new PingPongResult(spec, new LatencyReport(facts, spec.mode(), spec.percentile(), results,
                    notes(counts, runner.capNotes), pinned), options, counts, startMillis, logged, interrupted, Optional.empty(), tcp);
        } finally {
            if (shown != null) {
                shown.close();
            }
            roundTrips[0] = runner.roundTrips;
            if (log != null) {
                log.finish();
                log.close();
            }
        }
    }

    /**
     * @return the label of a size's progress report in the live counters, {@code pingpong tcp 64 B}; the
     *     report counts the sizes done before it ({@code DONE}) of the sweep's sizes ({@code TOTAL}), and
     *     its start time is the size's
     */
    static String progressLabel(PingPongSpec spec, int size) {
        return "pingpong " + spec.protocol().label() + " " + size + " B";
    }

    private static FullLog openFullLog(PingPongSpec spec) throws TransferException {
        if (spec.fullLog().isEmpty()) {
            return null;
        }
        try {
            return FullLog.open(spec.fullLog().get(), spec.timeout());
        } catch (IOException e) {
            throw new TransferException(e.getMessage(), e, true);
        }
    }

    /**
     * Measures one size; an interrupt of this thread ends it early, between round trips or by
     * closing the client's channel in one, and what it measured until then is its result.
     *
     * @return whether the size was cut short by an interrupt (its status is cleared)
     */
    private boolean measure(int size, long t0, List<SizeLatency> results, List<PingPongResult.SizeCounts> counts)
            throws TransferException {
        ByteBuffer tx = ByteBuffer.allocateDirect(size);
        for (int i = 0; i < size; i++) {
            tx.put(i, (byte) i);
        }
        ByteBuffer rx = ByteBuffer.allocateDirect(size);
        ExactRangeHistogram h = LatencyHistograms.create();
        IterationPolicy.Progress p = spec.policy().newProgress();
        long serverAlloc0 = -1;
        long clientAlloc0 = -1;
        long sizeTrips = 0;
        staleAnswers = 0;
        boolean datagram = spec.protocol().datagram();
        long now = clock.nanoTime();
        p.begin(now);
        if (!p.warmingUp()) {
            tcpOpen();
            serverAlloc0 = serverAllocated();
            clientAlloc0 = clientAllocated();
        }
        boolean interrupted = false;
        try {
            while (true) {
                if (Thread.interrupted()) {
                    interrupted = true;
                    break;
                }
                boolean warming = p.warmingUp();
                tx.clear();
                rx.clear();
                // one bound for the round trip (the write and the whole answer), read outside the timed part
                long deadline = System.nanoTime() + timeoutNanos;
                if (datagram) {
                    AnswerStamp.stamp(tx, size, roundTrips);
                }
                long start = stamped ? 0 : clock.nanoTime();
                int s = exchange(tx, rx, size, datagram, deadline);
                long stop = stamped ? 0 : clock.nanoTime();
                checkAnswer(s, rx, size);
                checkInTime(deadline, size);
                if (stamped) {
                    // from right before the message's send(2) to right after the recv(2) that completed its answer
                    start = end.sendStartNanos();
                    stop = end.receiveEndNanos();
                }
                if (log != null) {
                    log.record(roundTrips, size, warming ? DatagramHeader.WARMUP : DatagramHeader.WINDOW, start, stop);
                }
                roundTrips++;
                sizeTrips++;
                if (!warming) {
                    LatencyHistograms.record(h, stop - start);
                }
                if (!p.completed(stop)) {
                    now = stop;
                    break;
                }
                if (warming && !p.warmingUp()) {
                    tcpOpen();
                    serverAlloc0 = serverAllocated();
                    clientAlloc0 = clientAllocated();
                }
            }
        } catch (ClosedByInterruptException e) {
            // the interrupt closed the client's channel inside a round trip, which is not counted
            Thread.interrupted();
            interrupted = true;
        } catch (IOException e) {
            throw failure(size, -1, e);
        }
        if (interrupted) {
            now = clock.nanoTime();
        }
        long clientAlloc1 = clientAllocated();
        long serverAlloc1 = serverAllocated();
        tcpClose();
        if (!interrupted) {
            p.shortfall().ifPresent(why -> capNotes.add(size + "-byte messages: " + why));
        }
        results.add(new SizeLatency(size, h, p.measuredNanos(), Math.max(0, now - t0) / 1e9));
        counts.add(new PingPongResult.SizeCounts(size, sizeTrips, p.measuredIterations(),
                between(clientAlloc0, clientAlloc1), between(serverAlloc0, serverAlloc1), staleAnswers));
        return interrupted;
    }

    /** Opens a measured part of both ends' TCP_INFO windows (no allocation). */
    private void tcpOpen() {
        if (clientTcp != null) {
            clientTcp.open();
        }
        if (serverTcp != null) {
            serverTcp.open();
        }
    }

    /** Closes the measured part of both ends' TCP_INFO windows, if open (no allocation). */
    private void tcpClose() {
        if (clientTcp != null) {
            clientTcp.close();
        }
        if (serverTcp != null) {
            serverTcp.close();
        }
    }

    /**
     * @return both ends' TCP_INFO at the end of the sweep, read while the sockets are open; empty
     *     when the client's end is not TCP. An echo end that is not in this JVM (a peer agent's) is
     *     marked unavailable here; its host reads its own.
     */
    private Optional<LatencyTcpInfo> tcpInfo() {
        if (clientTcp == null) {
            return Optional.empty();
        }
        LatencyTcpInfo.End s = serverTcp != null ? serverTcp.end()
                : LatencyTcpInfo.End.unavailable(SERVER_SOURCE, server == null ? PEER_ECHO : "the echo end is not TCP");
        return Optional.of(new LatencyTcpInfo(clientTcp.end(), s));
    }

    /**
     * One message and its answer, both bounded by {@code deadline}. A duplicated or late datagram
     * answer carries an earlier round trip's number: it is skipped and counted in
     * {@link #staleAnswers}, and this round trip waits for its own.
     *
     * @return {@link MessageEnd#OK} or the endpoint's failure code
     */
    private int exchange(ByteBuffer tx, ByteBuffer rx, int size, boolean datagram, long deadline) throws IOException {
        int s = end.write(tx, deadline);
        if (s == MessageEnd.OK) {
            s = end.read(rx, deadline, true);
            while (datagram && s == MessageEnd.OK && !AnswerStamp.carries(rx, size, roundTrips)) {
                staleAnswers++;
                rx.clear();
                s = end.read(rx, deadline, true);
            }
        }
        return s;
    }

    /** @throws TransferException if the round trip failed or the answer is not the message's size */
    private void checkAnswer(int s, ByteBuffer rx, int size) throws TransferException {
        if (s != MessageEnd.OK) {
            throw failure(size, s, null);
        }
        if (rx.position() != size) {
            throw new TransferException(String.format(Locale.ROOT,
                    "%s answer of %d bytes to a %d-byte message after %d round trips",
                    spec.protocol().label(), rx.position(), size, roundTrips), null);
        }
    }

    /**
     * The timeout bounds the whole round trip, whichever end waited: an answer that was there only
     * after the deadline (this end was descheduled or stopped while it waited) fails the run as a
     * timeout would, on every transport, instead of entering the figures as a valid round trip.
     *
     * @throws TransferException if the deadline, a {@link System#nanoTime()} reading, has passed
     */
    private void checkInTime(long deadline, int size) throws TransferException {
        long late = System.nanoTime() - deadline;
        if (late > 0) {
            throw new TransferException(String.format(Locale.ROOT, "%s ping-pong of %d-byte messages ended: the answer "
                            + "was there only %.3f ms after the timeout of %d ms (a stalled client or server); %d round "
                            + "trips completed", spec.protocol().label(), size, late / 1e6, timeoutNanos / 1_000_000L,
                    roundTrips), null);
        }
    }

    private static List<String> notes(List<PingPongResult.SizeCounts> counts, List<String> capNotes) {
        List<String> notes = staleNotes(counts);
        notes.addAll(capNotes);
        return notes;
    }

    private static List<String> staleNotes(List<PingPongResult.SizeCounts> counts) {
        List<String> notes = new ArrayList<>();
        for (PingPongResult.SizeCounts c : counts) {
            if (c.staleAnswers() > 0) {
                notes.add(String.format(Locale.ROOT, "%d answers to %d-byte messages carried an earlier round trip's "
                        + "number (duplicated or late datagrams) and were skipped; each round trip was timed to its own "
                        + "answer", c.staleAnswers(), c.sizeBytes()));
            }
        }
        return notes;
    }

    private TransferException failure(int size, int status, IOException e) {
        String what = switch (status) {
            case MessageEnd.TIMEOUT -> String.format(Locale.ROOT,
                    "no answer within the timeout of %d ms (counted as 1 timeout: %s)", timeoutNanos / 1_000_000L,
                    spec.protocol().datagram() ? "a lost datagram or a server that stopped answering"
                            : "a server that stopped answering");
            case MessageEnd.EOF -> "the server closed the connection";
            case MessageEnd.STOPPED -> "the run was stopped";
            default -> "I/O error: " + (e == null ? "unknown" : e.getMessage());
        };
        Throwable serverFailure = server == null ? null : server.failure();
        return new TransferException(String.format(Locale.ROOT, "%s ping-pong of %d-byte messages ended: %s; "
                        + "%d round trips completed%s", spec.protocol().label(), size, what, roundTrips,
                serverFailure == null ? "" : "; server: " + serverFailure.getMessage()), e);
    }

    private static long clientAllocated() {
        return ALLOCATION == null ? -1 : ALLOCATION.getCurrentThreadAllocatedBytes();
    }

    private long serverAllocated() {
        return ALLOCATION == null || server == null || !server.thread().isAlive() ? -1
                : ALLOCATION.getThreadAllocatedBytes(server.thread().getId());
    }

    private static long between(long a, long b) {
        return a < 0 || b < 0 ? -1 : b - a;
    }
}
