package io.linerate.examples.cli;

import io.linerate.peers.agent.client.SecretFile;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.PeerServer;
import io.linerate.peers.server.PeerServerConfig;
import io.linerate.peers.server.PeerServerSettings;
import io.linerate.peers.server.ServedTestListener;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code linerate serve}: the peer agent that runs the far end of streams, ping-pong, rr and raw frames for clients on other hosts. */
@Command(name = "serve", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Runs the peer agent: listens on a TCP control port and runs the far end of each client's "
                + "stream, ping-pong, rr or raw-frame run (`linerate stream|pingpong|rr|raw --peer HOST:PORT`), up to --max-sessions at once, "
                + "until SIGTERM or SIGINT, which end running sessions with their counts so far.",
                "On an address other than loopback it requires --secret-file: clients answer a challenge with "
                        + "HMAC-SHA256 of the shared secret.",
                "With --iperf3 it serves unmodified iperf3 clients (`iperf3 -c`) instead, on port 5201 unless --port "
                        + "is given; off loopback that requires --allow-from.",
                "Each server prints, as `iperf3 -s` does, a line when a test starts, an interval line per second (per "
                        + "--interval of a linerate client's stream) with the bytes and bit/s received, for UDP also jitter and "
                        + "lost/total datagrams, and summary lines when the test ends (for a linerate ping-pong or rr, one line "
                        + "of the agent's echoes and bytes echoed, or connections accepted and responses served); --quiet "
                        + "prints none of them.",
                "Exit codes: 130 stopped by Ctrl-C (SIGINT) and 143 by SIGTERM, as for any signal; 0 stopped from "
                        + "within the JVM; 1 the control port failed; 2 bad usage."})
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Option(names = "--bind", defaultValue = "127.0.0.1", paramLabel = "ADDR",
            description = "Address of the control port (default: ${DEFAULT-VALUE}); data sockets use the address a client reached.")
    String bind;

    @Option(names = "--port", defaultValue = "" + AgentConfig.DEFAULT_PORT, description = "Control port, 0..65535 (default: ${DEFAULT-VALUE}); 0 = ephemeral.")
    int port;

    @Option(names = "--max-sessions", defaultValue = "" + AgentLimits.DEFAULT_MAX_SESSIONS, paramLabel = "N",
            description = "Sessions served at once, 1..1024 (default: ${DEFAULT-VALUE}); a client beyond them is refused.")
    int maxSessions;

    @Option(names = "--secret-file", paramLabel = "FILE",
            description = "File holding the shared secret (one trailing newline is dropped); required off loopback.")
    Path secretFile;

    @Option(names = "--max-duration", defaultValue = "10min", converter = Converters.DurationConverter.class,
            description = "Longest warm-up + duration of one stream (default: 10 min).")
    Duration maxDuration;

    @Option(names = "--max-rate", defaultValue = "0", converter = Converters.RateConverter.class, paramLabel = "BIT/S",
            description = "Highest target rate of one session's streams together; 0 = no limit (default). With a limit, "
                    + "unlimited streams are refused.")
    long maxRate;

    @Option(names = "--max-payload", defaultValue = "1M", converter = Converters.SizeConverter.class, paramLabel = "BYTES",
            description = "Largest write or datagram (default: 1M = 1048576 bytes).")
    int maxPayload;

    @Option(names = "--max-streams", defaultValue = "" + AgentLimits.DEFAULT_MAX_STREAMS, paramLabel = "N",
            description = "Most data streams in one session (a client's --parallel), and request/response flows (--flows), each a connection of its own, 1..128 (default: ${DEFAULT-VALUE}).")
    int maxStreams;

    @Option(names = "--iperf3",
            description = "Serve iperf3 clients (`iperf3 -c`, TCP and UDP, -R, -P) instead of linerate's; port 5201 unless --port is given.")
    boolean iperf3;

    @Option(names = "--iperf2",
            description = "Serve iperf 2 clients (`iperf -c`, TCP and -u) and zperf instead of linerate's, answering UDP with "
                    + "iperf 2's server report; port 5001 unless --port is given.")
    boolean iperf2;

    @Option(names = "--allow-from", paramLabel = "CIDR[,CIDR...]",
            description = "The client addresses served, e.g. 198.18.0.0/15,2001:2::/48, each a network address (198.18.0.5/24 "
                    + "is refused: its host bits are set; give 198.18.0.0/24); others are closed before anything is "
                    + "read. With --iperf3 or --iperf2 required off loopback, as iperf clients cannot send the shared secret; "
                    + "for linerate's clients optional beside --secret-file.")
    String allowFrom;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "The transport linerate's agent runs its ends of streams, ping-pongs and request/response "
                    + "on (default: " + AgentConfig.DEFAULT_TRANSPORT + "); one that offers ends for peers: nio, or native "
                    + "for TCP and UDP streams, TCP and UDP ping-pong (blocking muxer) and request/response (selector "
                    + "muxer); it answers other runs with an error. Raw frames take "
                    + "the transport that runs them; --iperf3 and --iperf2 serve on the JDK's sockets.")
    String transport;

    @Option(names = {"-q", "--quiet"},
            description = "Print no interval lines or summaries of the tests served, and log no line per test: only the line "
                    + "saying where the server listens, and warnings and errors.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        InetAddress address;
        if (bind.isBlank()) {
            throw new IllegalArgumentException("--bind is empty; allowed: an address of this host, such as 127.0.0.1 "
                    + "(the default), ::1 or 198.18.0.2");
        }
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("--bind '" + bind + "' is not an address of this host", e);
        }
        if (iperf3 && iperf2) {
            throw new IllegalArgumentException("--iperf3 and --iperf2 each serve one protocol: give one of them");
        }
        ServedKind kind = iperf3 ? ServedKind.IPERF3 : iperf2 ? ServedKind.IPERF2 : ServedKind.AGENT;
        PrintWriter out = command.commandLine().getOut();
        PeerServerConfig config = config(kind, address);
        PeerServer server = config.start(quiet ? ServedTestListener.NONE : new ServedLines(out));
        return serveUntilStopped(server, config, kind, out);
    }

    /** @return the settings of {@code kind}'s server from the options: one base, and the agent's secret */
    private PeerServerConfig config(ServedKind kind, InetAddress address) throws java.io.IOException {
        if (kind != ServedKind.AGENT && secretFile != null) {
            throw new IllegalArgumentException("--secret-file does not apply to " + kind.option + ": " + kind.tool
                    + " clients cannot answer its challenge; use --allow-from CIDR[,CIDR...]");
        }
        if (kind != ServedKind.AGENT && transport != null) {
            throw new IllegalArgumentException("--transport does not apply to " + kind.option + ": its server's ends "
                    + "are the JDK's sockets; --transport picks the ends of linerate's agent");
        }
        boolean portGiven = command.commandLine().getParseResult().hasMatchedOption("--port");
        PeerServerSettings settings = new PeerServerSettings(address, portGiven ? port : kind.defaultPort,
                allowFrom == null ? AllowFrom.anyone() : AllowFrom.parse(allowFrom),
                new AgentLimits(maxSessions, maxDuration, maxRate, maxPayload, maxStreams), kind.ioTimeout);
        return switch (kind) {
            case AGENT -> AgentConfig.of(settings, secretFile == null ? Optional.empty() : Optional.of(SecretFile.read(secretFile)))
                    .withTransport(transport == null ? AgentConfig.DEFAULT_TRANSPORT : transport);
            case IPERF3 -> Iperf3ServerConfig.of(settings);
            case IPERF2 -> Iperf2ServerConfig.of(settings);
        };
    }

    /**
     * Says where {@code server} listens and serves until SIGTERM or SIGINT (the JVM's shutdown), or
     * until the calling thread is interrupted; then closes it.
     */
    private Integer serveUntilStopped(PeerServer server, PeerServerConfig config, ServedKind kind, PrintWriter out) {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "linerate-serve-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        synchronized (out) {
            out.println("# linerate " + Linerate.version() + " " + kind.describe(server, config) + "; stop with SIGTERM or Ctrl-C");
            out.flush();
        }
        try {
            stopped.await();
        } catch (InterruptedException e) {
            // stopped from within this JVM (a test, an embedding program) rather than by a signal
            Runtime.getRuntime().removeShutdownHook(hook);
            server.close();
        }
        return Linerate.OK;
    }
}
