package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.MetricSink;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.MetricJson;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.ResultLineSink;
import io.linerate.core.sink.TableSink;
import io.linerate.core.spi.Transport;
import io.linerate.netns.NetworkNamespace;
import io.linerate.nio.PathFacts;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackSuite.Outcome;
import io.linerate.suite.LoopbackSuite;
import io.linerate.suite.LoopbackTcpPayload;
import io.linerate.suite.LoopbackZeroLoss;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code linerate loopback}: zperf's loopback suite over this host's (or a private namespace's) loopback. */
@Command(name = "loopback", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Runs the loopback suite: udp, udp_frag, tcp and tcp_nodelay over IPv4 and IPv6, "
                + "every upload at a non-default traffic class.",
                "Prints one ZPERF-RESULT line per transfer and ZPERF-DONE at the end.",
                "Exit codes: 0 done, 1 a transfer failed or a result is invalid, 2 bad usage."})
final class LoopbackCommand implements Callable<Integer>, ReportsProgress {
    /** Name prefix of the namespaces --netns makes; the JVM's pid follows. */
    static final String NETNS_PREFIX = "linerate-";
    /** The longest the loopback MSS probe of each family may take (it moves 1 MiB over loopback). */
    static final Duration MSS_PROBE_BOUND = Duration.ofSeconds(10);

    @Spec
    CommandSpec command;

    private volatile ProgressView progress = ProgressView.COUNTERS;

    /** Why --netns cannot make its namespace here, or empty; tests replace it. */
    Supplier<Optional<String>> namespaceUnavailable = NetworkNamespace::unavailableReason;

    @Mixin
    TransferOptions transfer;

    @Option(names = "--duration", defaultValue = "2s", converter = Converters.DurationConverter.class,
            description = "Measured time of each transfer, such as 500ms or 2s (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--payload", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "Payload of udp and tcp transfers in bytes (default: udp 1220, zperf's; tcp one full segment "
                    + "per write: each family's loopback MSS where that is below 2440, as in the namespace of --netns "
                    + "(IPv4 1228, IPv6 1208), else 1220).")
    Integer payload;

    @Option(names = "--frag-payload", defaultValue = "2000", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "Payload of the *_frag transfers in bytes (default: ${DEFAULT-VALUE}).")
    int fragPayload;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "Runs per marker, in rounds, for the gate's distributions (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--family", defaultValue = "both", paramLabel = "4|6|both",
            description = "Address families to run (default: ${DEFAULT-VALUE}).")
    String family;

    @Option(names = "--markers", split = ",", paramLabel = "MARKER",
            description = "Transfers to run, each once: udp4, udp4_frag, tcp4, tcp4_nodelay, udp6, udp6_frag, tcp6, tcp6_nodelay "
                    + "(default: all).")
    List<String> markers;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run every transfer on, by name (see `linerate transports`); default: the first "
                    + "that supports the suite's transfers.")
    String transportName;

    @Option(names = "--netns", description = "Run inside a private network namespace whose loopback has MTU 1280, "
            + "so the *_frag transfers fragment (root only: without root it fails with exit code 2); the namespace "
            + "and everything in it go when linerate ends, however it ends.")
    boolean netns;

    @Option(names = "--zero-loss", description = "Also search each udp marker's zero-loss rate (RFC 2544's throughput, "
            + "NDR) after its transfer: prints ZPERF-RESULT <marker>_ndr_mbps beside <marker>_mbps, and with --ktap the "
            + "metric <marker>_ndr_mbps in the marker's test. Refused when --markers has no udp marker.")
    boolean zeroLoss;

    @Option(names = "--zero-loss-trial", defaultValue = "500ms", converter = Converters.DurationConverter.class,
            description = "Measured length of each --zero-loss trial (default: ${DEFAULT-VALUE}, short so that the suite "
                    + "takes seconds; RFC 2544 asks for 60s).")
    Duration zeroLossTrial;

    @Override
    public Integer call() throws IOException {
        OutputFormat fmt = transfer.outputFormat();
        TransferOptions t = transfer;
        // the TCP default follows this namespace's loopback MSS; with --netns the child JVM decides it there
        LoopbackTcpPayload tcp = payload != null ? LoopbackTcpPayload.given(payload)
                : netns ? LoopbackTcpPayload.zperf() // the child reads the namespace's MSS; nothing to probe here
                : LoopbackTcpPayload.of(PathFacts.readLoopbackTcpMss(AddressFamily.IPV4, MSS_PROBE_BOUND),
                        PathFacts.readLoopbackTcpMss(AddressFamily.IPV6, MSS_PROBE_BOUND));
        LoopbackSuite.Config config = LoopbackSuite.Config.builder()
                .markers(selectedMarkers())
                .duration(duration)
                .warmup(t.warmup)
                .interval(t.interval)
                .payloadBytes(payload != null ? payload : LoopbackSuite.ZPERF_PAYLOAD_BYTES)
                .tcpPayload(tcp)
                .fragPayloadBytes(fragPayload)
                .rateBitsPerSecond(t.rate)
                .port(t.port)
                .repeat(repeat)
                .trafficClass(t.trafficClass)
                .ioTimeout(t.ioTimeout)
                .build();
        config.validate();
        SearchSpec zeroLossSearch = zeroLoss ? LoopbackZeroLoss.defaultSearch(config, zeroLossTrial) : null;
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        if (netns) {
            Optional<String> why = namespaceUnavailable.get();
            if (why.isPresent()) {
                // bad usage, not a quiet fallback: a CI job asking for the namespace must not lose the *_frag markers
                throw new IllegalArgumentException("--netns: " + why.get() + "; without --netns the suite runs on "
                        + "this host's loopback, where the *_frag transfers are skipped with their reason");
            }
            return runInNamespace(config, zeroLossSearch, err);
        }
        return runHere(config, fmt, out, zeroLossSearch);
    }

    private List<AddressFamily> families() {
        return switch (family.toLowerCase(Locale.ROOT)) {
            case "both", "all" -> List.of(AddressFamily.IPV4, AddressFamily.IPV6);
            case "4", "ipv4" -> List.of(AddressFamily.IPV4);
            case "6", "ipv6" -> List.of(AddressFamily.IPV6);
            default -> throw new IllegalArgumentException("unknown family '" + family + "'; allowed: 4, 6, both");
        };
    }

    private List<Marker> selectedMarkers() {
        List<Marker> out = LoopbackMarkers.select(markers, families(), family);
        LoopbackMarkers.checkZeroLoss(zeroLoss, out);
        return out;
    }

    /**
     * Re-runs this command in a child JVM inside a fresh namespace, then removes the namespace. The
     * namespace's holder kills the child when this JVM ends, by close, a signal's shutdown hook or
     * SIGKILL, so no suite runs on without its parent.
     */
    private int runInNamespace(LoopbackSuite.Config config, SearchSpec zeroLossSearch, PrintWriter err) throws IOException {
        List<String> args = new ArrayList<>(Arrays.asList(
                command.commandLine().getParent().getParseResult().originalArgs().toArray(new String[0])));
        args.removeIf("--netns"::equals);
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> child = new ArrayList<>(List.of(java, LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"),
                Linerate.class.getName()));
        child.addAll(args);
        long perTransfer = config.warmup().plus(config.duration()).plus(config.ioTimeout().multipliedBy(2)).toSeconds() + 1;
        Duration bound = Duration.ofSeconds(60 + perTransfer * config.markers().size() * config.repeat());
        if (zeroLossSearch != null) {
            // a search of one marker: the unlimited trial, its bisection trials and its confirm trials, each bounded as a transfer
            long perTrial = zeroLossSearch.warmup().plus(zeroLossSearch.trial()).plus(config.ioTimeout().multipliedBy(2))
                    .toSeconds() + 1;
            long trials = 1 + zeroLossSearch.maxTrials() + 2L * zeroLossSearch.confirm();
            long udp = config.markers().stream().filter(LoopbackZeroLoss::applies).count();
            bound = bound.plusSeconds(perTrial * trials * udp * config.repeat());
        }
        String name = NETNS_PREFIX + ProcessHandle.current().pid();
        try (NetworkNamespace ns = NetworkNamespace.create(name, LoopbackSuite.FRAG_LOOPBACK_MTU)) {
            err.println("# running in a network namespace of its own (held by process " + ns.holderPid()
                    + ", not in ip netns list; it ends with linerate), loopback MTU " + LoopbackSuite.FRAG_LOOPBACK_MTU);
            err.flush();
            return ns.exec(child, bound, command.commandLine().getOut(), err);
        }
    }

    private int runHere(LoopbackSuite.Config config, OutputFormat fmt, PrintWriter out,
                        SearchSpec zeroLossSearch) {
        // before any output: a transport that is missing or cannot run the suite is bad usage
        Transport transport = LoopbackMarkers.transport(transportName, config, families());
        Clock clock = Clock.system();
        long start = clock.nanoTime();
        List<MetricSink> sinks = new ArrayList<>();
        KtapDocument doc = fmt == OutputFormat.ktap
                ? KtapDocument.start(out, config.markers().size() * config.repeat()) : null;
        if (doc != null) {
            sinks.add(doc.metrics());
        } else if (fmt == OutputFormat.text) {
            sinks.add(new TableSink(out));
        }
        if (fmt != OutputFormat.json) {
            sinks.add(new ResultLineSink(out)); // last, so that ZPERF-DONE closes the output
        }
        MetricSink sink = MetricSink.tee(sinks);
        if (fmt != OutputFormat.json) {
            out.println(String.format(Locale.ROOT,
                    "# linerate %s loopback: %.3f s measured after %.3f s warm-up per transfer, udp payload %d B, "
                            + "tcp payload %s, frag payload %d B, rate %s, traffic class 0x%02x, loopback MTU %s",
                    Linerate.version(), config.duration().toNanos() / 1e9, config.warmup().toNanos() / 1e9,
                    config.payloadBytes(), config.tcpPayload().description(), config.fragPayloadBytes(),
                    config.rateBitsPerSecond() == 0 ? "unlimited" : config.rateBitsPerSecond() + " bit/s",
                    config.trafficClass(), LoopbackSuite.loopbackMtu().isPresent()
                            ? Long.toString(LoopbackSuite.loopbackMtu().getAsLong()) : "unknown"));
            LoopbackZeroLoss.unlimitedUdpLossNote(config).ifPresent(n -> out.println("# " + n));
        }
        LoopbackZeroLoss zero = zeroLossSearch == null ? null : new LoopbackZeroLoss(transport, clock, zeroLossSearch);
        if (zero != null && fmt != OutputFormat.json) {
            out.println("# " + zero.trialLine());
        }
        SuiteOutcomes outcomes = new SuiteOutcomes(fmt, out, command.commandLine().getErr(), sink, doc, zero, config,
                clock, start);
        LoopbackSuite suite = new LoopbackSuite(transport, clock);
        SuiteProgress shown = new SuiteProgress(config.repeat(), config.markers());
        progress = shown;
        suite.run(config, shown.listener(outcomes));
        if (doc != null) {
            doc.end();
        }
        sink.close();
        out.flush();
        return outcomes.exitCode();
    }

    @Override
    public ProgressView progressView() {
        return progress;
    }

    static JsonObject header(Outcome o) {
        return JsonObject.create().put("version", ResultJson.TRANSFER_VERSION).put("marker", o.marker().label())
                .put("run", o.run());
    }

    /** @return the transfer's summary with the suite's marker, run, fragments and validity (which replace the transfer's own in place) */
    static JsonObject completedJson(Outcome.Completed c) {
        JsonObject n = ResultJson.transfer(c.result());
        n.put("marker", c.marker().label());
        // the metrics its --ktap output writes, for the gate to read under the same keys
        n.putObjects("metrics", c.valid() ? c.result().metrics(c.marker().label()).stream().map(MetricJson::metricObject).toList()
                : List.of());
        n.put("run", c.run());
        if (c.fragmentsCreated().isPresent()) {
            n.put("fragments_created", c.fragmentsCreated().getAsLong());
        }
        n.put("valid", c.valid());
        n.putStrings("reasons", c.invalidReasons());
        return n;
    }

    /** What the exit code depends on. */
}
