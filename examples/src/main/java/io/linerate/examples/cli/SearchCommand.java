package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.Resolution;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.UdpStreamTrial;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.KtapDocument;
import io.linerate.peers.agent.client.RemoteUdpTrial;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate search}: RFC 2544's throughput test (section 26.1) over a UDP stream on loopback,
 * or with {@code --peer} through linerate's agent ({@link RemoteUdpTrial}), searched by bisection as
 * TRex's NDR/PDR search does ({@link RateSearch}); with {@code --tx/--rx}, over raw frames per frame
 * size ({@link RawSearchRun}).
 */
@Command(name = "search", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Finds the highest rate a UDP stream over loopback carries with no loss (NDR), or with at most "
                + "--loss-tolerance percent lost (PDR): RFC 2544's throughput test (section 26.1), by bisection as "
                + "TRex's NDR search. Each load is judged by up to --trials-per-load trials and fails when more than "
                + "half of them fail (MLRsearch's rule); --strict judges it by one trial, as RFC 2544. Prints the trials "
                + "table, the rate the found load carried and the trial duration used.",
                "With --peer HOST:PORT: each trial is a UDP stream through linerate's agent (`linerate serve`), this host "
                        + "sending and the agent counting the loss (--reverse: the other way).",
                "With --tx IF --rx IF: the same over raw frames through AF_PACKET (needs CAP_NET_RAW), one search per "
                        + "--frame-sizes size, rates in L2 bit/s; per size frames/s, bit/s at L2 and on the wire, and the "
                        + "percentage of line rate where the link is real (not veth).",
                "Exit codes: 0 found, 1 even the min rate lost (the trials table is printed) or a trial failed to run, "
                        + "2 bad usage."})
final class SearchCommand implements Callable<Integer>, ReportsProgress {
    @Spec
    CommandSpec command;

    private volatile ProgressView progress = ProgressView.COUNTERS;

    @Option(names = "--protocol", defaultValue = "udp", paramLabel = "udp",
            description = "Protocol (default: ${DEFAULT-VALUE}); only UDP counts loss per datagram.")
    String protocol;

    @Option(names = "--family", paramLabel = "4|6", description = "Address family (default: the --peer address literal's, else 4).")
    String family;

    @Option(names = "--payload", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "Bytes per datagram, 32-byte header included (default: the largest that does not fragment at "
                    + "the loopback MTU, at most 1460; with --peer, give the path's: MTU - 28 over IPv4, - 48 over IPv6).")
    Integer payload;

    @Option(names = "--trial", defaultValue = "2s", converter = Converters.DurationConverter.class,
            description = "Measured length of each trial, warm-up not included (default: ${DEFAULT-VALUE}; RFC 2544 "
                    + "asks for 60s). At least 200ms and 5 reporting intervals.")
    Duration trial;

    @Option(names = "--interval", converter = Converters.DurationConverter.class,
            description = "Reporting interval within a trial (default: a tenth of the trial).")
    Duration interval;

    @Option(names = "--warmup", defaultValue = "250ms", converter = Converters.DurationConverter.class,
            description = "Time before each trial's measured window, left out of it (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--min-rate", defaultValue = "0", paramLabel = "BIT/S", converter = Converters.RateConverter.class,
            description = "Lowest rate searched (default: 1%% of the max rate).")
    long minRate;

    @Option(names = "--max-rate", defaultValue = "0", paramLabel = "BIT/S", converter = Converters.RateConverter.class,
            description = "Highest rate searched (default: what a first trial at unlimited rate achieved).")
    long maxRate;

    @Option(names = "--resolution", defaultValue = "1%", paramLabel = "PCT%|BIT/S",
            description = "Stop when the search interval is this narrow: a percentage of the current upper bound "
                    + "(more than 0%% and less than 50%%) or a rate such as 1M (default: ${DEFAULT-VALUE}).")
    String resolution;

    @Option(names = "--max-trials", defaultValue = "" + SearchSpec.DEFAULT_MAX_TRIALS, paramLabel = "N",
            description = "Bound on bisection loads, 1..1000 (default: ${DEFAULT-VALUE}): trials with --strict, load "
                    + "judgements of up to --trials-per-load trials each otherwise; confirm judgements are extra.")
    int maxTrials;

    @Option(names = "--trials-per-load", paramLabel = "N",
            description = "Most trials that judge one offered load, 1.." + SearchSpec.MAX_TRIALS_PER_LOAD + " (default: "
                    + SearchSpec.DEFAULT_TRIALS_PER_LOAD + "): a load fails when more than half of them fail, and its "
                    + "trials stop once that is certain (MLRsearch's rule, goal exceed ratio 50%%), so one sporadic "
                    + "loss does not move a bound.")
    Integer trialsPerLoad;

    @Option(names = "--strict",
            description = "RFC 2544's strict search: one trial judges each load, and one failed trial moves the bound "
                    + "(--trials-per-load 1).")
    boolean strict;

    @Option(names = "--loss-tolerance", defaultValue = "0", paramLabel = "PCT",
            description = "Loss a passing trial may have, percent of what it sent, such as 0.1 or 0.1%% (default: "
                    + "${DEFAULT-VALUE}: NDR; above 0 the rate found is a PDR).")
    String lossTolerance;

    @Option(names = "--confirm", defaultValue = "" + SearchSpec.DEFAULT_CONFIRM, paramLabel = "N",
            description = "Judgements of the found rate that must all pass, 1..100 (default: ${DEFAULT-VALUE}); each "
                    + "is one trial with --strict, up to --trials-per-load otherwise.")
    int confirm;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run on, by name (see `linerate transports`); default: the first that supports the spec.")
    String transportName;

    @Option(names = "--sndbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "SO_SNDBUF to request (1024-based K/M); 0 = kernel default.")
    int sendBuffer;

    @Option(names = "--rcvbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "SO_RCVBUF to request (1024-based K/M); 0 = kernel default. A larger one rides out longer "
                    + "stalls of the receiving thread on a busy host.")
    int receiveBuffer;

    @Option(names = "--io-timeout", defaultValue = "5s", converter = Converters.DurationConverter.class,
            description = "Bound on every blocking wait (default: ${DEFAULT-VALUE}).")
    Duration ioTimeout;

    @Option(names = "--plot", paramLabel = "FILE.svg",
            description = "Also write an SVG of loss against offered load over the trials, the found rate marked "
                    + "(`linerate plot --search` draws the same from a saved --json result).")
    Path plot;

    @Option(names = "--loss-sweep",
            description = "Run RFC 2544's frame loss rate test (section 26.3) instead: trials from the max rate down "
                    + "in steps of 10%% of it until two successive steps lose nothing; prints each step's offered rate "
                    + "and loss. Uses --max-rate (default: an unlimited trial), --trial, --warmup and --interval.")
    boolean lossSweep;

    @Mixin
    OutputOptions output;

    @Mixin
    RawSearchOptions raw;

    @Mixin
    SearchPeerOptions peer;

    @Override
    public Integer call() throws TransferException, IOException {
        OutputFormat fmt = output.format();
        peer.check(raw.requested(), transportName);
        if (raw.requested()) {
            if (payload != null) {
                throw new IllegalArgumentException("--payload " + payload + " sizes a UDP datagram; a search over raw frames "
                        + "takes --frame-sizes");
            }
            SearchProgress shown = new SearchProgress(raw.sizes());
            progress = shown;
            return new RawSearchRun(raw, searchSpec(), transportName, fmt, command.commandLine().getOut()).run(shown);
        }
        if (command.commandLine().getParseResult().hasMatchedOption("--batch")) {
            throw new IllegalArgumentException("--batch " + raw.batch + " sets frames per send call of a search over raw "
                    + "frames; this search is over UDP datagrams: give --tx IF --rx IF, or leave --batch out");
        }
        Protocol p = Protocol.parse(protocol);
        if (p != Protocol.UDP) {
            throw new IllegalArgumentException("protocol '" + protocol + "' cannot be searched: its loss is not counted per "
                    + "datagram; allowed: udp");
        }
        AddressFamily f = PeerFamily.of(family, peer.peer);
        SearchSpec search = searchSpec();
        TransferSpec base = TransferSpec.builder()
                .protocol(p)
                .family(f)
                .payloadBytes(payload != null ? payload : LoopbackPayload.bytes(p, f))
                .sendBufferBytes(sendBuffer)
                .receiveBufferBytes(receiveBuffer)
                .ioTimeout(ioTimeout)
                .endpoint(peer.endpoint())
                .build();
        // the secret stays in the trial's options: it is in no spec, so in nothing printed or written
        UdpStreamTrial udp = peer.given() ? RemoteUdpTrial.of(base, search, Clock.system(), peer.options())
                : new UdpStreamTrial(base, search, transportName, Clock.system());
        udp.specAt(1); // a spec the transfer refuses is bad usage before any trial runs
        search.checkCarries(udp.messageBits()); // so is a rate at which a trial carries fewer than 2 datagrams
        String marker = p.label() + f.label();
        LossSweepRun.checkPlotPath(plot);
        if (lossSweep) {
            LossSweepProgress sweep = new LossSweepProgress();
            progress = sweep;
            return LossSweepRun.run(search, sweep.watching(udp), marker, String.format(Locale.ROOT, "linerate %s loss sweep: "
                    + "%s payload %d B%s", Linerate.version(), marker, base.payloadBytes(), where()), fmt, plot,
                    command.commandLine().getOut());
        }
        SearchProgress shown = new SearchProgress();
        progress = shown;
        long start = System.nanoTime();
        SearchResult r = RateSearch.run(search, udp, shown);
        double t = (System.nanoTime() - start) / 1e9;
        write(r, marker, base.payloadBytes(), search, t, fmt);
        if (plot != null) {
            LossSweepRun.plot(r, marker, plot);
        }
        return r.confirmed() ? Linerate.OK : Linerate.FAILED;
    }

    /**
     * Writes a search's result in {@code fmt}: its trials table, the trial duration, its notes and
     * what it found (text and KTAP, with the found rate's metrics and a KTAP result line), or its JSON.
     *
     * @param seconds how long the search took, s
     */
    private void write(SearchResult r, String marker, int payloadBytes, SearchSpec search, double seconds,
                       OutputFormat fmt) {
        PrintWriter out = command.commandLine().getOut();
        String header = String.format(Locale.ROOT, "linerate %s search: %s payload %d B%s, %s", Linerate.version(), marker,
                payloadBytes, where(), search);
        switch (fmt) {
            case json -> {
                JsonObject json = SearchFormat.json(r, marker).put("payload", payloadBytes);
                if (peer.given()) {
                    json.put("peer", peer.endpoint().toString()).put("direction", peer.reverse ? "reverse" : "forward");
                }
                out.println(json.toJson());
            }
            case ktap -> {
                KtapDocument doc = KtapDocument.start(out, 1);
                doc.diagnostic(header);
                SearchFormat.table(r).forEach(doc::diagnostic);
                doc.diagnostic(SearchFormat.trialDurationLine(r));
                r.notes().forEach(n -> doc.diagnostic("note: " + n));
                doc.diagnostic(SearchFormat.foundLine(r));
                SearchFormat.metrics(r, marker, seconds).forEach(doc.metrics()::accept);
                String test = SearchFormat.metricName(r, marker).replace("_mbps", "");
                if (r.confirmed()) {
                    doc.ok(test);
                } else {
                    doc.fail(test, SearchFormat.failReason(r));
                }
                doc.end();
            }
            case text -> {
                out.println("# " + header);
                SearchFormat.table(r).forEach(out::println);
                out.println("# " + SearchFormat.trialDurationLine(r));
                r.notes().forEach(n -> out.println("# note: " + n));
                out.println(SearchFormat.foundLine(r));
            }
        }
        out.flush();
    }

    @Override
    public ProgressView progressView() {
        return progress;
    }

    /** @return where the trials run, for the header: empty on loopback */
    private String where() {
        if (!peer.given()) {
            return "";
        }
        return " through the agent at " + peer.endpoint() + ", " + (peer.reverse ? "reverse (the agent sends)"
                : "forward (this host sends)");
    }

    /** @return the search's parameters from the options (rates: UDP payload bit/s, or L2 bit/s over raw frames) */
    private SearchSpec searchSpec() {
        if (strict && trialsPerLoad != null && trialsPerLoad != 1) {
            throw new IllegalArgumentException("--strict judges each load by one trial; --trials-per-load " + trialsPerLoad
                    + " asks for more; allowed: one of them, or --trials-per-load 1");
        }
        return SearchSpec.builder()
                .minBitsPerSecond(minRate)
                .maxBitsPerSecond(maxRate)
                .resolution(Resolution.parse(resolution))
                .maxTrials(maxTrials)
                .lossTolerancePercent(percent(lossTolerance))
                .confirm(confirm)
                .trialsPerLoad(strict ? 1 : trialsPerLoad != null ? trialsPerLoad : SearchSpec.DEFAULT_TRIALS_PER_LOAD)
                .trial(trial)
                .interval(interval)
                .warmup(warmup)
                .build();
    }

    /** @return {@code 0.5} or {@code 0.5%} as a number of percent */
    static double percent(String text) {
        String t = text == null ? "" : text.strip();
        String n = t.endsWith("%") ? t.substring(0, t.length() - 1).strip() : t;
        try {
            return new BigDecimal(n).doubleValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss tolerance '" + t + "' is not a percentage; allowed: 0 (NDR) up to "
                    + "but excluding 100, such as 0.1 or 0.1%");
        }
    }
}
