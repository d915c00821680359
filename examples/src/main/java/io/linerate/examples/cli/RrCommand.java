package io.linerate.examples.cli;

import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Muxer;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.sink.MetricJson;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate rr}: netperf TCP_RR / TCP_CRR (neper tcp_rr / tcp_crr) over loopback with the
 * server and every flow in this JVM, on the transport {@link Transports#select} picks
 * ({@code --transport NAME} or the first that runs request-response). Prints transactions per
 * second per flow and in total and the transaction latency, as text (default), a KTAP document of
 * the result's metrics or the result's JSON ({@link ResultJson#of}). Exit codes ({@link ExitCodes}):
 * 0 done, 1 the run failed or its result is invalid, 2 bad usage, with a message naming the value and the allowed range.
 */
@Command(name = "rr", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Runs request/response transactions over TCP on loopback (or against linerate's agent with "
                + "--peer), as netperf TCP_RR (or TCP_CRR "
                + "with --crr: a new connection per transaction), and reports transactions per second and "
                + "transaction latency.",
                "Exit codes: 0 done, 1 the run failed or its result is invalid, 2 bad usage, 130 interrupted "
                        + "(Ctrl-C)."})
public final class RrCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    OutputOptions output;

    @Mixin
    LatencyOptions latency;

    @Mixin
    AgentPeerOptions peer;

    @Mixin
    RepeatOption repeat;

    @Option(names = "--flows", defaultValue = "1", paramLabel = "N", description = "Connections at once, 1..1024 (default: ${DEFAULT-VALUE}).")
    int flows;

    @Option(names = "--request-size", defaultValue = "1", paramLabel = "BYTES", converter = Converters.SizeConverter.class, description = "Request size (default: ${DEFAULT-VALUE}).")
    int requestSize;

    @Option(names = "--response-size", defaultValue = "1", paramLabel = "BYTES", converter = Converters.SizeConverter.class, description = "Response size (default: ${DEFAULT-VALUE}).")
    int responseSize;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.DurationConverter.class,
            description = "Measured window (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "1s", converter = Converters.DurationConverter.class,
            description = "Time before the window, not counted (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--crr", description = "A new connection per transaction (connect, request, response, close).")
    boolean crr;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "TPS", converter = Converters.TransactionRateConverter.class,
            description = "Open loop: transactions/s of all flows (decimal k/m suffixes: 10k = 10000), sent at fixed "
                    + "intervals, latency from the scheduled send time; 0 = closed loop (default).")
    long rate;

    @Option(names = "--muxer", defaultValue = "selector", paramLabel = "MODE",
            description = "How the flows and the server wait for their sockets: selector, spin, backoff "
                    + "(default: ${DEFAULT-VALUE}).")
    String muxer;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run on, by name (see `linerate transports`): nio, or native (Linux sockets "
                    + "through JNI; its flows and server wait in poll(2), so muxer selector only), in this JVM or "
                    + "with --peer; default: the first that supports the spec.")
    String transportName;

    @Option(names = "--idle", paramLabel = "STRATEGY",
            description = "How the polling muxers (spin, backoff) wait between polls: busy, yield, backoff, sleep "
                    + "(default: busy for spin, backoff for backoff).")
    String idle;

    /**
     * Runs this command alone, before it is registered under {@code linerate}; exits with its code.
     *
     * @param args the options
     */
    public static void main(String[] args) {
        System.exit(Linerate.runAlone(new RrCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        OutputFormat fmt = output.format();
        RrSpec spec = RrSpec.builder()
                .family(PeerFamily.of(latency.family, peer.peer))
                .flows(flows)
                .requestBytes(requestSize)
                .responseBytes(responseSize)
                .duration(duration)
                .warmup(warmup)
                .crr(crr)
                .rate(rate)
                .noDelay(latency.noDelay)
                .timeout(latency.timeout)
                .percentile(latency.percentile)
                .muxer(Muxer.parse(muxer))
                .idle(idle == null ? null : Idle.parse(idle))
                .endpoint(peer.endpoint())
                .build();
        RunFacts facts = RunFacts.detect(Linerate.version(), String.join(" ",
                command.commandLine().getParseResult().originalArgs()));
        Transport transport = Transports.select(transportName, spec);
        return Repeats.run(command, fmt, repeat.runs(), out -> run(out, fmt, spec, facts, transport));
    }

    /** Runs the transactions once, writing to {@code out}; @return the exit code */
    private int run(PrintWriter out, OutputFormat fmt, RrSpec spec, RunFacts facts, Transport transport)
            throws TransferException {
        MeasurementResult result;
        try (Measurement m = transport.open(spec, Clock.system())) {
            result = m.run();
        }
        MeasurementResult written = result instanceof RrResult r ? r.withFacts(facts) : result;
        switch (fmt) {
            case text -> {
                if (written instanceof RrResult r) {
                    r.report().writeText(out);
                    r.tcpInfo().ifPresent(t -> TcpInfoText.print(out, t));
                    if (spec.endpoint().remoteAddress().isPresent()) {
                        out.println("# remote: the agent at " + spec.endpoint() + " accepted " + r.accepts()
                                + " connections and served " + r.served() + " responses; " + r.completed()
                                + " transactions completed here (warm-up included: the total above counts the measured ones)");
                    }
                } else {
                    out.println("# linerate " + Linerate.version() + " rr on transport " + transport.name());
                    written.metrics().forEach(mt -> out.println(MetricJson.metric(mt)));
                }
                written.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
            }
            case ktap -> KtapOutputs.rr(out, spec, written);
            case json -> RunWriter.printJson(out, ResultJson.of(written));
        }
        out.flush();
        return written.valid() ? Linerate.OK : Linerate.FAILED;
    }
}
