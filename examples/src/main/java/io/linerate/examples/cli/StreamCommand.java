package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Affinity;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * {@code linerate stream}: one TCP or UDP stream, both ends in this JVM over loopback, or with {@code --peer} one end
 * here and the other on linerate's agent or an iperf3 or iperf 2 server.
 */
@Command(name = "stream", versionProvider = Linerate.Version.class, modelTransformer = Iperf3Unsupported.class,
        footer = Converters.UNITS_FOOTER,
        description = {"Runs one TCP or UDP stream and prints iperf-style interval lines and a summary: both ends "
                + "in this JVM over loopback, or with --peer HOST:PORT one end here and the other on linerate's agent "
                + "(`linerate serve`) or an unmodified iperf3 or iperf 2 server (--peer-protocol iperf3|iperf2); "
                + "-c HOST is a client of the iperf3 server on HOST with iperf3's options (-t -u -b -l -P -R -J ...).",
                "Exit codes: 0 done, 1 the transfer failed or its result is invalid, 2 bad usage, 130 interrupted "
                        + "(Ctrl-C: the result so far is printed, marked interrupted)."})
final class StreamCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    // not mixinStandardHelpOptions: -V is iperf3's verbose, refused by Iperf3Unsupported
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "Print version information and exit.")
    boolean version;

    @Mixin
    Iperf3ClientOptions iperf3Client;

    @Mixin
    TransferOptions transfer;

    @Mixin
    PeerOptions peer;

    @Mixin
    RepeatOption repeat;

    @Option(names = "--protocol", defaultValue = "tcp", paramLabel = "tcp|udp", description = "Protocol (default: ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--family", paramLabel = "4|6", description = "Address family (default: the --peer address literal's, else 4).")
    String family;

    @Option(names = "--payload", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "Bytes per write (TCP) or per datagram (UDP, 32-byte header included), such as 1400 or 64K "
                    + "(default: TCP 128K, iperf3's; UDP the largest datagram that does not fragment at the loopback "
                    + "MTU, at most 1460, iperf3's default without an MSS: MTU - IP header - 8).")
    Integer payload;

    @ArgGroup(exclusive = true)
    BoundOptions bound = new BoundOptions();

    static final class BoundOptions {
        @Option(names = "--duration", converter = Converters.DurationConverter.class,
                description = "Measured time, such as 500ms or 10s (default: 10s).")
        Duration duration;

        @Option(names = "--bytes", paramLabel = "BYTES", converter = Converters.ByteCountConverter.class,
                description = "Send this many payload bytes instead of a duration (1024-based K/M/G: 10M = 10485760).")
        Long bytes;

        @Option(names = "--messages", paramLabel = "N", converter = Converters.CountConverter.class,
                description = "Send this many writes or datagrams instead of a duration (decimal k/m/g: 10k = 10000).")
        Long messages;
    }

    @Mixin
    StreamIoOptions io;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run on, by name (see `linerate transports`); default: the first that supports the spec. "
                    + "With --peer (linerate's agent), the transport of this host's end: nio or native.")
    String transportName;

    @Option(names = "--affinity", paramLabel = "C;S",
            description = "Pin the client's threads to CPU C and the server's to CPU S, as iperf3's -A C,S (C,S is taken "
                    + "too) and sfnt-pingpong's --affinity; 'any' leaves that end unpinned. In one JVM the client is "
                    + "every sending thread and the server every receiving one. With --peer, C pins this host's end "
                    + "whichever way it sends, and S must be any: the agent's CPU is not sent (run it under taskset -c S). "
                    + "A thread whose CPU set the kernel does not read back as its CPU fails the run. Needs the native "
                    + "layer (Linux).")
    String affinity;

    @Option(names = "--nodelay", description = "Set TCP_NODELAY on the sender.")
    boolean noDelay;

    @Option(names = "--sndbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "SO_SNDBUF to request (1024-based K/M); 0 = kernel default.")
    int sendBuffer;

    @Option(names = "--rcvbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "SO_RCVBUF to request (1024-based K/M); 0 = kernel default.")
    int receiveBuffer;

    @Option(names = "--pacing-timer", defaultValue = "1ms", converter = Converters.DurationConverter.class,
            description = "With --rate: the sender wakes at most about once per this time and sends every message then due, "
                    + "so a message leaves up to this late but never early, as iperf3's --pacing-timer (default: "
                    + "${DEFAULT-VALUE}, iperf3's); 0 = a wake-up per message, spinning its last microseconds "
                    + "(more CPU, each message within microseconds of its time); at most 10ms.")
    Duration pacingTimer;

    @Option(names = "--full-log", paramLabel = "FILE",
            description = "UDP: write every received datagram's sequence number, size, phase, send and receive time "
                    + "(ns) to FILE as CSV, as sockperf's --full-log.")
    Path fullLog;

    /** Options that shape a stream whose both ends run here, and would be silently lost with {@code --peer}. */
    private static final List<String> LOCAL_ONLY = List.of("--transport", "--port", "--full-log");
    private static final Map<String, String> LOCAL_ONLY_WHY = Map.of(
            "--transport", "this end of an iperf3 or iperf 2 server's stream runs on the nio transport",
            "--port", "the peer picks its data port",
            "--full-log", "no receiver in this JVM writes a full log");

    private void refuseLocalOnlyWithPeer() {
        if (peer.peer == null) {
            return;
        }
        // with linerate's agent, this host's end runs on the transport --transport names
        boolean agent = peer.protocol.equals(PeerOptions.LINERATE);
        List<String> given = LOCAL_ONLY.stream().filter(o -> !(agent && o.equals("--transport")))
                .filter(o -> command.commandLine().getParseResult().hasMatchedOption(o)).toList();
        if (!given.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", given) + (given.size() == 1 ? " applies" : " apply")
                    + " to a stream whose both ends run in this JVM; with --peer, leave " + (given.size() == 1 ? "it" : "them")
                    + " out (" + String.join("; ", given.stream().map(LOCAL_ONLY_WHY::get).toList()) + ")");
        }
    }

    /**
     * @return the spec this command line gives; {@code -c HOST} and iperf3's options are first
     *     written into the long options they stand for
     * @throws IllegalArgumentException naming a refused option, two that contradict each other, or
     *     a value out of range
     */
    TransferSpec spec() {
        ParseResult parsed = command.commandLine().getParseResult();
        Iperf3Unsupported.refuse(parsed);
        if (iperf3Client.given()) {
            iperf3Client.applyTo(this, parsed);
        } else {
            Iperf3ClientOptions.refuseWithoutHost(parsed);
        }
        boolean warmupGiven = parsed.hasMatchedOption("--warmup");
        peer.check(parsed.hasMatchedOption("--peer-protocol"), warmupGiven);
        refuseLocalOnlyWithPeer();
        if (parsed.hasMatchedOption("--iperf2-header")
                && !(peer.peer != null && peer.protocol.equals(PeerOptions.IPERF2) && "udp".equalsIgnoreCase(protocol))) {
            throw new IllegalArgumentException("--iperf2-header " + peer.iperf2Header + " applies to UDP datagrams sent "
                    + "to an iperf 2 server only: give it with --peer HOST:PORT --peer-protocol iperf2 --protocol udp");
        }
        boolean agent = peer.peer != null && peer.protocol.equals(PeerOptions.LINERATE);
        boolean iperf3 = peer.peer != null && (peer.protocol.equals(PeerOptions.IPERF3)
                || peer.protocol.equals(PeerOptions.IPERF2));
        if (agent && (bound.bytes != null || bound.messages != null)) {
            throw new IllegalArgumentException((bound.bytes != null ? "--bytes " + bound.bytes : "--messages "
                    + bound.messages) + " bounds the stream by a count, but linerate's agent (--peer) takes a "
                    + "duration bound only (the two ends agree on when to stop by time): give --duration");
        }
        Protocol p = Protocol.parse(protocol);
        AddressFamily f = PeerFamily.of(family, peer.peer);
        return TransferSpec.builder()
                .protocol(p)
                .family(f)
                .payloadBytes(payload != null ? payload : LoopbackPayload.bytes(p, f))
                .bound(bound())
                .rateBitsPerSecond(transfer.rate)
                .noDelay(noDelay)
                // iperf3's server has no warm-up and linerate's client asks for no omitted seconds
                .warmup(iperf3 ? Duration.ZERO : transfer.warmup)
                .interval(transfer.interval)
                .port(transfer.port)
                .trafficClass(transfer.trafficClass)
                .sendBufferBytes(sendBuffer)
                .receiveBufferBytes(receiveBuffer)
                .ioTimeout(transfer.ioTimeout)
                .pacingTimer(pacingTimer)
                .fullLog(fullLog)
                .io(io.io())
                .affinity(affinity == null ? Affinity.NONE : Affinity.parse(affinity))
                .endpoint(peer.endpoint())
                .build();
    }

    /**
     * One road for every stream: the spec (whose endpoint names the peer, if any) selects the
     * transport, which opens and runs it; one writer of the output format takes the intervals and the
     * result, whatever ran the far end.
     */
    @Override
    public Integer call() throws Exception {
        TransferSpec spec = spec();
        return Repeats.run(command, transfer.outputFormat(), repeat.runs(), out -> run(out, spec));
    }

    /** Runs the stream once, writing to {@code out}; @return the exit code */
    private int run(PrintWriter out, TransferSpec spec) throws TransferException {
        OutputFormat fmt = transfer.outputFormat();
        if (fmt == OutputFormat.text && iperf3Client.given()) {
            iperf3Client.header(spec, peer).forEach(out::println);
        }
        StreamWriter writer = StreamWriter.of(fmt, out, spec, payloadNote(spec));
        MeasurementResult r;
        try (Measurement m = Transports.select(transportName, spec).open((MeasurementSpec) spec, Clock.system())) {
            writer.start();
            r = m.run(writer);
        }
        writer.end(r);
        if (r instanceof TransferResult t && t.fullLog().flatMap(l -> l.failure()).isPresent()) {
            PrintWriter err = command.commandLine().getErr();
            err.println("linerate: " + t.fullLog().get().describe());
            err.flush();
            return Linerate.FAILED;
        }
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    private String payloadNote(TransferSpec spec) {
        return payload != null ? "given" : LoopbackPayload.note(spec.protocol(), spec.family());
    }

    private Bound bound() {
        if (bound.bytes != null) {
            return Bound.bytes(bound.bytes);
        }
        if (bound.messages != null) {
            return Bound.messages(bound.messages);
        }
        return Bound.duration(bound.duration == null ? Duration.ofSeconds(10) : bound.duration);
    }
}
