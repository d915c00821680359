package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.Affinity;
import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.sink.MetricJson;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.client.RemotePingPongResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate pingpong}: sfnt-pingpong's latency sweep with the client and an echo server in
 * this JVM, on the transport {@link Transports#select} picks ({@code --transport NAME} or the first
 * that runs ping-pong). Prints the sfnt-pingpong table (default), a KTAP document of the result's
 * metrics or the result's JSON ({@link ResultJson#of}); {@code --raw DIR} also writes each size's
 * samples as an HdrHistogram log. Exit codes ({@link ExitCodes}): 0 done, 1
 * the run failed (such as a timeout) or its result is invalid, 2 bad usage, with a message naming the value and the allowed
 * range.
 */
@Command(name = "pingpong", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Bounces one message between a client and an echo server in this JVM (or on linerate's "
                + "agent with --peer) and reports "
                + "mean, min, median, max, a percentile and standard deviation of half the round-trip time "
                + "(or the round trip with --rtt) per message size, as sfnt-pingpong does.",
                "Exit codes: 0 done, 1 the run failed or its result is invalid, 2 bad usage, 130 interrupted "
                        + "(Ctrl-C: the result so far is printed, marked interrupted)."})
public final class PingPongCommand implements Callable<Integer>, ReportsProgress {
    @Spec
    CommandSpec command;

    private volatile ProgressView progress = ProgressView.COUNTERS;

    @Mixin
    OutputOptions output;

    @Mixin
    LatencyOptions latency;

    @Mixin
    AgentPeerOptions peer;

    @Mixin
    RepeatOption repeat;

    @Option(names = "--protocol", defaultValue = "tcp", paramLabel = "PROTO",
            description = "tcp, udp, unix_stream, unix_datagram (on the native transport: Java NIO has no Unix-domain "
                    + "datagram channel) or pipe (default: ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES[,BYTES...]", converter = Converters.SizeConverter.class,
            description = "Message sizes, such as 1,64,1472 or 1K,4K (1024-based); overrides --minmsg/--maxmsg.")
    List<Integer> sizes;

    @Option(names = "--minmsg", defaultValue = "1", paramLabel = "BYTES", converter = Converters.SizeConverter.class, description = "Smallest size of the powers-of-two sweep (default: ${DEFAULT-VALUE}).")
    int minMsg;

    @Option(names = "--maxmsg", defaultValue = "32768", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "Largest size of the sweep, such as 32768 or 32K (default: ${DEFAULT-VALUE}).")
    int maxMsg;

    @Option(names = "--minms", defaultValue = "1000", paramLabel = "MS", converter = Converters.MillisConverter.class,
            description = "Time floor per size: ms, or with a unit such as 2s (default: ${DEFAULT-VALUE} ms).")
    Duration minTime;

    @Option(names = "--maxms", defaultValue = "3000", paramLabel = "MS", converter = Converters.MillisConverter.class,
            description = "Time cap per size: ms, or with a unit such as 5s (default: ${DEFAULT-VALUE} ms).")
    Duration maxTime;

    @Option(names = "--miniter", defaultValue = "1000", paramLabel = "N", converter = Converters.CountConverter.class, description = "Round-trip floor per size (default: ${DEFAULT-VALUE}).")
    long minIter;

    @Option(names = "--maxiter", defaultValue = "1000000", paramLabel = "N", converter = Converters.CountConverter.class,
            description = "Round-trip cap per size, such as 1000000 or 1m (default: ${DEFAULT-VALUE}).")
    long maxIter;

    @Option(names = "--warmupms", defaultValue = "250", paramLabel = "MS", converter = Converters.MillisConverter.class,
            description = "Warm-up time per size, samples discarded: ms, or with a unit (default: ${DEFAULT-VALUE} ms).")
    Duration warmupTime;

    @Option(names = "--warmupiter", defaultValue = "1000", paramLabel = "N", converter = Converters.CountConverter.class, description = "Warm-up round trips per size (default: ${DEFAULT-VALUE}).")
    long warmupIter;

    @Option(names = "--muxer", defaultValue = "blocking", paramLabel = "MODE",
            description = "How the client waits: blocking, selector, spin, backoff (default: ${DEFAULT-VALUE}).")
    String muxer;

    @Option(names = "--serv-muxer", paramLabel = "MODE", description = "How the echo server waits (default: as --muxer).")
    String servMuxer;

    @Option(names = "--idle", paramLabel = "STRATEGY",
            description = "How the polling muxers (spin, backoff) wait between polls: busy, yield, backoff, sleep "
                    + "(default: busy for spin, backoff for backoff).")
    String idle;

    @Option(names = "--sndbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class, description = "SO_SNDBUF to request; 0 = kernel default.")
    int sendBuffer;

    @Option(names = "--rcvbuf", defaultValue = "0", paramLabel = "BYTES", converter = Converters.SizeConverter.class, description = "SO_RCVBUF to request; 0 = kernel default.")
    int receiveBuffer;

    @Option(names = "--tclass", defaultValue = "0", converter = Converters.ByteConverter.class,
            description = "IP_TOS / IPv6 traffic class of tcp and udp (default: ${DEFAULT-VALUE}).")
    int trafficClass;

    @Option(names = "--mcast", paramLabel = "ADDR",
            description = "UDP multicast, as sfnt-pingpong: both ends join group ADDR (224.0.0.0/4 or ff00::/8, of "
                    + "the family) and send to it, each at the other's port (udp only; not with --peer or --connect).")
    String mcast;

    @Option(names = "--mcastintf", paramLabel = "IF[;IF]",
            description = "Interface the ends join the group on and send from (IP_MULTICAST_IF): one for both, or "
                    + "CLIENT_IF;SERVER_IF as sfnt-pingpong (quote the ';'); default the loopback's. Alone, "
                    + "multicast to sfnt-pingpong's group " + PingPongMulticast.DEFAULT_IPV4_GROUP + " (IPv6 "
                    + PingPongMulticast.DEFAULT_IPV6_GROUP + ").")
    String mcastIntf;

    @Option(names = "--mcastloop", description = "IP_MULTICAST_LOOP on both ends (default: off, as sfnt-pingpong); "
            + "needs --mcast or --mcastintf.")
    boolean mcastLoop;

    @Option(names = "--connect", description = "connect() both UDP sockets to each other, as sfnt-pingpong's "
            + "--connect (udp only; default: sendto() without connecting; with --peer the agent's echo end "
            + "connects in any case).")
    boolean connect;

    @Option(names = "--bindtodev", paramLabel = "IF", description = "Bind both ends' sockets to interface IF "
            + "(SO_BINDTODEVICE), as sfnt-pingpong's --bindtodev (tcp and udp; on the native transport, which it "
            + "selects; IF must exist).")
    String bindToDevice;

    @Option(names = "--rtt", description = "Report round trips instead of half round trips.")
    boolean rtt;

    @Option(names = "--full-log", paramLabel = "FILE",
            description = "Write every round trip's number, message size, phase, send and receive time (ns) to FILE "
                    + "as CSV, as sockperf's --full-log.")
    Path fullLog;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run on, by name (see `linerate transports`): nio, or native (Linux sockets "
                    + "through JNI: tcp, udp and unix_datagram, muxer blocking, in this JVM; tcp and udp with --peer); "
                    + "default: the first that supports the spec.")
    String transportName;

    @Option(names = "--raw", paramLabel = "DIR", description = "Also write each size's samples to DIR/size-<bytes>.hlog (HdrHistogram log).")
    Path raw;

    @Option(names = "--affinity", paramLabel = "C;S",
            description = "Pin the client's thread to CPU C and the echo server's to CPU S, as sfnt-pingpong's --affinity; "
                    + "'any' leaves that end unpinned. Each set is read back and printed in the header. Needs the native "
                    + "layer (Linux); with --peer, the agent pins its echo thread.")
    String affinity;

    /** @return the spec the options ask for */
    PingPongSpec spec() {
        PingPongProtocol p = PingPongProtocol.parse(protocol);
        AddressFamily f = PeerFamily.of(latency.family, peer.peer);
        Muxer client = Muxer.parse(muxer);
        int max = p.maxMessageBytes(f);
        if (sizes == null && (maxMsg < 1 || maxMsg > max)) {
            throw new IllegalArgumentException("maxmsg " + maxMsg + " bytes is out of range: " + p.label()
                    + (p == PingPongProtocol.UDP ? " over IPv" + f.label() : "") + " allows 1.." + max + " bytes");
        }
        return PingPongSpec.builder()
                .protocol(p)
                .family(f)
                .sizes(sizes != null ? sizes : PingPongSpec.powersOfTwo(minMsg, maxMsg))
                .policy(new IterationPolicy(minTime, maxTime, minIter, maxIter, warmupTime, warmupIter))
                .clientMuxer(client)
                .serverMuxer(servMuxer == null ? client : Muxer.parse(servMuxer))
                .noDelay(latency.noDelay)
                .sendBufferBytes(sendBuffer)
                .receiveBufferBytes(receiveBuffer)
                .trafficClass(trafficClass)
                .timeout(latency.timeout)
                .percentile(latency.percentile)
                .mode(LatencyMode.of(rtt))
                .idle(idle == null ? null : Idle.parse(idle))
                .fullLog(fullLog)
                .endpoint(peer.endpoint())
                .multicast(multicast(f))
                .connect(connect)
                .affinity(affinity == null ? Affinity.NONE : Affinity.parse(affinity))
                .bindToDevice(bindToDevice)
                .build();
    }

    /** @return sfnt-pingpong's multicast options as given, or null for unicast */
    private PingPongMulticast multicast(AddressFamily f) {
        if (mcast == null && mcastIntf == null) {
            if (mcastLoop) {
                throw new IllegalArgumentException("--mcastloop sets IP_MULTICAST_LOOP of a multicast ping-pong; "
                        + "allowed: with --mcast ADDR or --mcastintf IF");
            }
            return null;
        }
        return PingPongMulticast.parse(mcast, mcastIntf, mcastLoop, f);
    }

    /**
     * Runs this command alone, before it is registered under {@code linerate}; exits with its code.
     *
     * @param args the options
     */
    public static void main(String[] args) {
        System.exit(Linerate.runAlone(new PingPongCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        OutputFormat fmt = output.format();
        PingPongSpec spec = spec();
        if (raw != null && !(java.nio.file.Files.isDirectory(raw) && java.nio.file.Files.isWritable(raw))) {
            throw new IllegalArgumentException("--raw " + raw + " is not a writable directory; allowed: an "
                    + "existing directory, where size-<bytes>.hlog files are written");
        }
        return Repeats.run(command, fmt, repeat.runs(), out -> run(out, fmt, spec));
    }

    /** Runs the sweep once, writing to {@code out}; @return the exit code */
    private int run(PrintWriter out, OutputFormat fmt, PingPongSpec spec) throws TransferException, IOException {
        RunFacts facts = RunFacts.detect(Linerate.version(), String.join(" ",
                command.commandLine().getParseResult().originalArgs()));
        Transport transport = Transports.select(transportName, spec);
        progress = new SizeSweepProgress(spec.policy());
        MeasurementResult result;
        try (Measurement m = transport.open(spec, Clock.system())) {
            result = m.run();
        }
        // the table, the raw logs and the applied options are nio's ping-pong's own; any other
        // transport's result is written through the result contract alone
        RemotePingPongResult agent = result instanceof RemotePingPongResult a ? a : null;
        PingPongResult r = result instanceof PingPongResult p ? p.withFacts(facts)
                : agent != null ? agent.local().withFacts(facts) : null;
        if (raw != null) {
            if (r == null) {
                throw new IOException("--raw: transport " + transport.name() + " gives no raw samples");
            }
            try {
                r.report().writeRawLogs(raw, r.startEpochMillis());
            } catch (IOException e) {
                throw new IOException("cannot write the raw samples under " + raw + ": " + e.getMessage(), e);
            }
        }
        MeasurementResult written = agent != null ? new RemotePingPongResult(r, agent.agentEchoes(), agent.agentEchoedBytes())
                : r != null ? r : result;
        switch (fmt) {
            case text -> {
                if (r != null) {
                    r.report().writeTable(out);
                    out.println("# applied: " + r.appliedDescription());
                    out.println("# wait: client " + waits(spec, spec.clientMuxer()) + ", " + (agent != null ? "agent's echo end " : "server ")
                            + waits(spec, spec.serverMuxer()));
                    r.fullLog().ifPresent(l -> out.println("# " + l.describe()));
                    r.tcpInfo().ifPresent(t -> TcpInfoText.print(out, t));
                    if (agent != null) {
                        out.println("# remote: the agent at " + spec.endpoint() + " echoed " + agent.agentEchoes()
                                + " times, " + agent.agentEchoedBytes() + " bytes, for " + r.roundTrips()
                                + " round trips of " + agent.bytesSent() + " bytes timed on this host's clock (warm-up "
                                + "included: the table counts the measured ones)");
                    }
                } else {
                    out.println("# linerate " + Linerate.version() + " pingpong on transport " + transport.name());
                    result.metrics().forEach(mt -> out.println(MetricJson.metric(mt)));
                }
                written.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
            }
            case ktap -> KtapOutputs.pingpong(out, spec, written);
            case json -> RunWriter.printJson(out, ResultJson.of(written));
        }
        out.flush();
        if (r != null && r.fullLog().flatMap(l -> l.failure()).isPresent()) {
            throw new IOException(r.fullLog().get().describe());
        }
        return written.valid() ? Linerate.OK : Linerate.FAILED;
    }

    @Override
    public ProgressView progressView() {
        return progress;
    }

    /** @return the muxer, and for a polling one its idle strategy ({@code spin (idle busy)}) */
    static String waits(PingPongSpec spec, Muxer m) {
        return m.label() + spec.idleOf(m).map(i -> " (idle " + i.label() + ")").orElse("");
    }
}
